// A stdio MCP server built with the SDK for the TUI's form tests. Tools: book (asks the user a
// form with a string, an integer, a boolean and an enum field, and returns what came back),
// ping (answers "pong").
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

const server = new McpServer({ name: 'rig-forms', version: '1.0.0' });
server.registerTool('book', { description: 'Book a room (asks the user)', annotations: { readOnlyHint: true } }, async () => {
  const answer = await server.server.elicitInput({
    message: 'Booking details, please',
    requestedSchema: {
      type: 'object',
      properties: {
        name: { type: 'string', title: 'Guest name', description: 'as on the passport' },
        nights: { type: 'integer', title: 'Nights', minimum: 1 },
        breakfast: { type: 'boolean', title: 'Breakfast', default: false },
        room: { type: 'string', title: 'Room', enum: ['single', 'double', 'suite'] },
      },
      required: ['name', 'nights'],
    },
  });
  return { content: [{ type: 'text', text: `booking answer ${JSON.stringify(answer)}` }] };
});
server.registerTool('ping', { description: 'Answers pong', annotations: { readOnlyHint: true } }, async () => ({ content: [{ type: 'text', text: 'pong' }] }));
await server.connect(new StdioServerTransport());
