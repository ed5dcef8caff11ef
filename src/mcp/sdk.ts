// The only place that loads @modelcontextprotocol/sdk. It costs ~150 ms to import from
// node_modules (zod schemas, ajv), so it is imported on first use, when a configured server is
// started, never at CLI startup. Other files of this room import SDK *types* only.
import type * as ClientModule from '@modelcontextprotocol/sdk/client/index.js';
import type * as HttpModule from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type * as TypesModule from '@modelcontextprotocol/sdk/types.js';

export interface McpSdk {
  Client: typeof ClientModule.Client;
  StreamableHTTPClientTransport: typeof HttpModule.StreamableHTTPClientTransport;
  types: Pick<
    typeof TypesModule,
    | 'CallToolResultSchema'
    | 'ElicitRequestSchema'
    | 'ToolListChangedNotificationSchema'
    | 'ErrorCode'
    | 'McpError'
  >;
}

let loading: Promise<McpSdk> | undefined;
let loaded = false;

export function loadMcpSdk(): Promise<McpSdk> {
  loading ??= (async () => {
    const [client, http, types] = await Promise.all([
      import('@modelcontextprotocol/sdk/client/index.js'),
      import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
      import('@modelcontextprotocol/sdk/types.js'),
    ]);
    loaded = true;
    return {
      Client: client.Client,
      StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
      types: {
        CallToolResultSchema: types.CallToolResultSchema,
        ElicitRequestSchema: types.ElicitRequestSchema,
        ToolListChangedNotificationSchema: types.ToolListChangedNotificationSchema,
        ErrorCode: types.ErrorCode,
        McpError: types.McpError,
      },
    };
  })();
  return loading;
}

/** Whether the SDK has been loaded in this process (tests check the lazy path with it). */
export function mcpSdkLoaded(): boolean {
  return loaded;
}
