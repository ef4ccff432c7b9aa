import dns, { type LookupAddress, type LookupOptions } from "node:dns";
import { isIP } from "node:net";
import { Agent, request } from "undici";
import { isPrivateAddress } from "./private-address";

// The one way the app sends a request to an address a customer chose (webhook endpoints, OAuth
// client metadata documents), so none of them can make us reach our own network (SSRF).
//
// A check of the host's addresses before connecting is not enough: the name can answer a public
// address to the check and 127.0.0.1 to the connection (DNS rebinding). So the check happens
// inside the connection's own lookup: the addresses it validates are the ones the socket uses.
// Redirects are never followed, and at most `maxBodyBytes` of the answer are read.

export type GuardedRequest = {
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  /** Whole request, from connecting to the last byte kept. */
  timeoutMs: number;
  /** Bytes of the response body to read; the rest is never read and the connection is closed. */
  maxBodyBytes: number;
  /** Allow loopback and private addresses (development and tests only). */
  allowPrivateAddresses?: boolean;
};

export type GuardedResponse = {
  status: number;
  headers: Headers;
  /** At most maxBodyBytes. */
  body: Buffer;
  /** Whether reading stopped at maxBodyBytes (the body may have gone on). */
  truncated: boolean;
};

export type OutboundFailure = "blocked" | "timeout" | "network";

export class OutboundRequestError extends Error {
  constructor(
    readonly reason: OutboundFailure,
    message: string,
  ) {
    super(message);
    this.name = "OutboundRequestError";
  }
}

const blockedCode = "ERR_PRIVATE_ADDRESS";

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** net.connect's lookup: resolves, refuses the connection if any address is private, else pins. */
function publicOnlyLookup(hostname: string, options: LookupOptions, callback: LookupCallback) {
  // dns.lookup read at call time, so the module's export is the resolver (tests replace it).
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    if (addresses.length === 0 || addresses.some(({ address }) => isPrivateAddress(address))) {
      const blocked: NodeJS.ErrnoException = new Error(`${hostname} resolves to a private address`);
      blocked.code = blockedCode;
      return callback(blocked, []);
    }
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
}

// Keep-alive connections are reused only for the address they were opened to, which was checked.
const agents = new Map<boolean, Agent>();
function agentFor(allowPrivate: boolean): Agent {
  let agent = agents.get(allowPrivate);
  if (!agent) {
    agent = new Agent({ connect: allowPrivate ? {} : { lookup: publicOnlyLookup } });
    agents.set(allowPrivate, agent);
  }
  return agent;
}

/** Sends one request through the SSRF guard; throws OutboundRequestError when no answer came. */
export async function guardedFetch(url: string, init: GuardedRequest): Promise<GuardedResponse> {
  const parsed = new URL(url);
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
    throw new OutboundRequestError("blocked", "only http(s) URLs can be requested");
  }
  const allowPrivate = init.allowPrivateAddresses ?? false;
  // An address literal is never looked up, so it is checked here.
  const host = parsed.hostname.replace(/^\[|\]$/g, "");
  if (!allowPrivate && isIP(host) && isPrivateAddress(host)) {
    throw new OutboundRequestError("blocked", "blocked: the host is a private address");
  }
  const signal = AbortSignal.timeout(init.timeoutMs);
  try {
    const response = await request(parsed, {
      dispatcher: agentFor(allowPrivate),
      method: init.method ?? "GET",
      headers: init.headers,
      body: init.body,
      signal,
    });
    const chunks: Buffer[] = [];
    let kept = 0;
    let truncated = false;
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      const room = init.maxBodyBytes - kept;
      chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
      kept += Math.min(chunk.length, room);
      if (chunk.length >= room) {
        // Leaving the loop destroys the stream: the rest is never read and the socket closes.
        truncated = true;
        break;
      }
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      for (const one of Array.isArray(value) ? value : [value ?? ""]) headers.append(name, one);
    }
    return { status: response.statusCode, headers, body: Buffer.concat(chunks), truncated };
  } catch (error) {
    if (signal.aborted) {
      throw new OutboundRequestError("timeout", `timed out after ${init.timeoutMs} ms`);
    }
    const code = (error as { code?: string }).code;
    if (code === blockedCode) {
      throw new OutboundRequestError("blocked", "blocked: the host resolves to a private address");
    }
    throw new OutboundRequestError("network", `connection failed: ${code ?? (error as Error).message}`);
  }
}
