// rig mcp add NAME [--env K=V]... -- COMMAND [ARGS...] | add NAME --url URL [--bearer-token-env-var VAR]
//         | list [--json] | get NAME [--json] | remove NAME
import type { Command } from 'commander';

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

async function context() {
  const manage = await import('../../mcp/manage.js');
  const ctx = {
    env: process.env,
    cwd: process.cwd(),
    print: (line: string) => void process.stdout.write(`${line}\n`),
    warn: (line: string) => void process.stderr.write(`rig: warning: ${line}\n`),
  };
  return { manage, ctx };
}

export function registerMcp(program: Command): void {
  const mcp = program.command('mcp').description('manage the MCP servers in $RIG_HOME/config.toml ([mcp_servers.NAME])');

  mcp
    .command('add')
    .description('add (or replace) a global MCP server: a command after `--` (stdio), or --url (streamable HTTP)')
    .usage('<name> [--env KEY=VALUE]... -- <command> [args...]  |  <name> --url <url> [--bearer-token-env-var VAR]')
    .argument('<name>', "server name (letters, numbers, '-', '_')")
    .argument('[command...]', 'the command that starts a stdio server, and its arguments (after --)')
    .option('--env <KEY=VALUE>', 'environment variable for a stdio server (repeatable)', collect)
    .option('--url <url>', 'URL of a streamable HTTP server')
    .option('--bearer-token-env-var <ENV_VAR>', 'environment variable holding the bearer token (HTTP only)')
    .action(async (name: string, command: string[], flags: { env?: string[]; url?: string; bearerTokenEnvVar?: string }) => {
      const { manage, ctx } = await context();
      process.exitCode = manage.runMcpAdd(ctx, name, {
        command,
        ...(flags.env ? { env: flags.env } : {}),
        ...(flags.url !== undefined ? { url: flags.url } : {}),
        ...(flags.bearerTokenEnvVar !== undefined ? { bearerTokenEnvVar: flags.bearerTokenEnvVar } : {}),
      });
    });

  mcp
    .command('list')
    .description('list the configured MCP servers (user config and trusted projects)')
    .option('--json', 'print a JSON array')
    .action(async (flags: { json?: boolean }) => {
      const { manage, ctx } = await context();
      process.exitCode = manage.runMcpList(ctx, flags);
    });

  mcp
    .command('get')
    .description('show one configured MCP server')
    .argument('<name>', 'server name')
    .option('--json', 'print a JSON object')
    .action(async (name: string, flags: { json?: boolean }) => {
      const { manage, ctx } = await context();
      process.exitCode = manage.runMcpGet(ctx, name, flags);
    });

  mcp
    .command('remove')
    .description('remove a global MCP server from $RIG_HOME/config.toml')
    .argument('<name>', 'server name')
    .action(async (name: string) => {
      const { manage, ctx } = await context();
      process.exitCode = manage.runMcpRemove(ctx, name);
    });
}
