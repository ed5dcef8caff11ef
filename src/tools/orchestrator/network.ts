// The network runtime: requests rig makes itself (web_fetch, a web_search backend), one host at a
// time, through the same pipeline as commands and change sets. The sandbox's network setting is
// what "sandboxed" means here: with network access on (workspace-write with network_access, or no
// sandbox) a request runs without asking unless the approval policy is `untrusted`; with it off, a
// request needs a person's yes (the policy permitting), and under `never` it is refused with how to
// turn network access on. "Approve for the session" remembers the host. A redirect to another host
// is a new request: the same rules apply to it before it is followed.
import type { NetworkApprovalRequest } from '../../protocol/index.js';
import { useBaselineWasmCompiler } from '../../model/index.js';
import { approvalPolicyName, type ApprovalAction } from '../../policy/index.js';
import { webFetch, webSearch, WebFetchError, WebSearchError, type FetchApprovalRequest, type SearchResult, type WebFetchResult, type WebSearchBackend } from '../../web/index.js';
import type { FetchOutcome, FetchRequest, SearchOutcome, TurnServices } from '../spec.js';
import type { OrchestratorOptions } from './options.js';
import { orchestrate, type ApprovalQuestion, type AskContext, type Runtime } from './pipeline.js';

export const USER_DECLINED_NETWORK = 'network request rejected by user';

const NETWORK_OFF =
  'network access is off in this sandbox (sandbox_workspace_write.network_access = false, or a read-only sandbox)';

const TURN_NETWORK_ON = 'To allow it: turn network access on (-c sandbox_workspace_write.network_access=true with -s workspace-write)';

const HOW_TO_ALLOW_NETWORK = `${TURN_NETWORK_ON}, or run in an interactive session (\`rig resume <thread id>\`), where you are asked.`;

type Outcome = { ok: true; value: unknown } | { ok: false; message: string };

interface NetworkAction {
  purpose: 'fetch' | 'search';
  url: URL;
  /** Performs the request; `approve` is asked before a redirect hop is followed. */
  perform(approve: (request: FetchApprovalRequest) => Promise<boolean>): Promise<unknown>;
}

function networkAllowed(options: OrchestratorOptions): boolean {
  return options.yolo || options.sandbox.mode === 'danger-full-access' || options.sandbox.networkAccess;
}

/** What the policy says about a request to `host`. */
function decideNetwork(options: OrchestratorOptions, host: string): ApprovalAction {
  if (options.yolo) return { action: 'run-unsandboxed' };
  const allowed = networkAllowed(options);
  if (options.approvalCache.isHostApproved(host)) return { action: allowed ? 'run-sandboxed' : 'run-unsandboxed' };
  const policy = options.approvalPolicy;
  const name = approvalPolicyName(policy);
  if (name === 'untrusted') {
    return { action: 'ask', thenRun: allowed ? 'sandboxed' : 'unsandboxed', reason: allowed ? 'approval policy untrusted asks before rig contacts a new host' : NETWORK_OFF };
  }
  if (allowed) return { action: 'run-sandboxed' };
  if (name === 'never' || (typeof policy === 'object' && !policy.granular.sandbox_approval)) {
    return { action: 'reject', reason: `${NETWORK_OFF}; rejected by the approval policy (${name}). ${TURN_NETWORK_ON}` };
  }
  return { action: 'ask', thenRun: 'unsandboxed', reason: NETWORK_OFF };
}

class NetworkRuntime implements Runtime<Outcome> {
  readonly retryTool = 'shell' as const;
  readonly declinedByUser = USER_DECLINED_NETWORK;
  /** Hosts this request may reach without asking again (the first one, once approved). */
  private readonly cleared = new Set<string>();

  constructor(
    private readonly action: NetworkAction,
    private readonly options: OrchestratorOptions,
    private readonly services: TurnServices,
  ) {}

  describe(): string {
    return this.action.purpose === 'search' ? `the web search at ${this.action.url.host}` : `the request to ${this.action.url.href}`;
  }

  async decide(): Promise<ApprovalAction> {
    return decideNetwork(this.options, this.action.url.host);
  }

  async question(context: AskContext): Promise<ApprovalQuestion> {
    return this.request(this.action.url.href, this.action.url.host, this.action.purpose, context.sandboxed, context.reason);
  }

  private request(url: string, host: string, purpose: NetworkApprovalRequest['purpose'], sandboxed: boolean, reason?: string, from?: string): ApprovalQuestion {
    return { kind: 'network', url, host, purpose, sandboxed, ...(reason ? { reason } : {}), ...(from ? { from } : {}) };
  }

  rememberApproval(): void {
    this.options.approvalCache.approveHost(this.action.url.host);
  }

  declined(message: string): Outcome {
    return { ok: false, message };
  }

  withNote(outcome: Outcome, note: string): Outcome {
    return outcome.ok ? outcome : { ok: false, message: `${outcome.message}\n\n${note}` };
  }

  deniedBySandbox(): boolean {
    return false;
  }

  denial(): undefined {
    return undefined;
  }

  async run(): Promise<Outcome> {
    this.cleared.add(this.action.url.host.toLowerCase());
    try {
      return { ok: true, value: await this.action.perform((hop) => this.approveHop(hop)) };
    } catch (error) {
      if (error instanceof WebFetchError || error instanceof WebSearchError) return { ok: false, message: error.message };
      if (this.services.signal.aborted) return { ok: false, message: 'aborted by user' };
      return { ok: false, message: `${this.action.purpose === 'search' ? 'web_search' : 'web_fetch'} failed: ${(error as Error).message}` };
    }
  }

  /** A redirect hop: the first request's host is cleared; another host is judged (and asked about) anew. */
  private async approveHop(hop: FetchApprovalRequest): Promise<boolean> {
    if (hop.reason === 'fetch' || this.cleared.has(hop.host.toLowerCase())) return true;
    const action = decideNetwork(this.options, hop.host);
    if (action.action === 'reject') return false;
    if (action.action !== 'ask') {
      this.cleared.add(hop.host.toLowerCase());
      return true;
    }
    const gate = this.services.callGate;
    const question = this.request(hop.url, hop.host, 'redirect', action.thenRun === 'sandboxed', action.reason, hop.from);
    const verdict = await gate?.permissionRequest?.(question);
    if (verdict) return verdict.behavior === 'allow';
    if (gate?.permissionDecision === 'allow' || !this.services.canAskApproval) return gate?.permissionDecision === 'allow';
    const answer = await this.services.askApproval(question);
    if (answer.decision === 'approve_for_session') this.options.approvalCache.approveHost(hop.host);
    const approved = answer.decision === 'approve' || answer.decision === 'approve_for_session';
    if (approved) this.cleared.add(hop.host.toLowerCase());
    return approved;
  }
}

function parseUrl(raw: string): URL | string {
  try {
    const url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return `only http:// and https:// URLs can be fetched, not ${url.protocol}//`;
    return url;
  } catch {
    return `${JSON.stringify(raw)} is not a valid URL (give an absolute http:// or https:// URL)`;
  }
}

export async function fetchUrl(request: FetchRequest, options: OrchestratorOptions, services: TurnServices): Promise<FetchOutcome> {
  useBaselineWasmCompiler();
  const url = parseUrl(request.url);
  if (typeof url === 'string') return { ok: false, message: `web_fetch: ${url}` };
  const action: NetworkAction = {
    purpose: 'fetch',
    url,
    perform: (approve) =>
      webFetch(url.href, {
        networkAllowed: true,
        approve,
        signal: services.signal,
        ...(request.maxChars !== undefined ? { maxChars: request.maxChars } : {}),
        ...(request.timeoutMs !== undefined ? { timeoutMs: request.timeoutMs } : {}),
        ...(request.raw ? { raw: true } : {}),
      }),
  };
  const outcome = await orchestrate(new NetworkRuntime(action, options, services), services, { approvalPolicy: options.approvalPolicy, howToAllow: HOW_TO_ALLOW_NETWORK });
  return outcome.ok ? { ok: true, page: outcome.value as WebFetchResult } : outcome;
}

export async function searchWeb(
  query: string,
  backend: WebSearchBackend,
  maxResults: number | undefined,
  options: OrchestratorOptions,
  services: TurnServices,
): Promise<SearchOutcome> {
  useBaselineWasmCompiler();
  const url = new URL(backend.url);
  const action: NetworkAction = {
    purpose: 'search',
    url,
    perform: () => webSearch(query, backend, { networkAllowed: true, signal: services.signal, ...(maxResults !== undefined ? { maxResults } : {}) }),
  };
  const outcome = await orchestrate(new NetworkRuntime(action, options, services), services, { approvalPolicy: options.approvalPolicy, howToAllow: HOW_TO_ALLOW_NETWORK });
  return outcome.ok ? { ok: true, results: outcome.value as SearchResult[] } : outcome;
}
