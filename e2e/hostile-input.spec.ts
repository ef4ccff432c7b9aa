import { readdirSync } from "node:fs";
import { request as httpRequest } from "node:http";
import path from "node:path";
import { allowedMethods, readRouteMethods } from "../scripts/route-methods";
import { appPort, expect, test } from "./fixtures";

// A seeded, bounded fuzz run over every route the OpenAPI document and the app router list (the
// framework's /api/auth/* and /api/inngest too) and every page, with real HTTP against the started
// app: hostile text (NUL, lone surrogates), paths that cannot be percent-decoded, huge and deep
// JSON, wrong types, wrong methods, bad credentials, garbage form posts. Every answer must come
// within a bound, never be a 5xx, never leak internals, and under /api/ be the JSON error
// envelope; a wrong method on a page is a 405. FUZZ_SEED replays a run; FUZZ_REQUESTS sets its size.

const seed = Number(process.env.FUZZ_SEED ?? 49);
const budget = Number(process.env.FUZZ_REQUESTS ?? 1500);
const perRequestMs = 15_000;
const root = path.resolve(import.meta.dirname, "..");

/** mulberry32: small, seedable, good enough to pick cases. */
function random(seedValue: number) {
  let state = seedValue >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Sent = {
  method: string;
  target: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  chunked?: boolean;
  /** The `Allow` a 405 must name: a method the target does not take. */
  refusedWith?: string;
};
type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: string };

/**
 * One request over its own connection, from a loopback address of its own (127.1.x.y): the
 * app limits public requests per client address, and the other specs share 127.0.0.1.
 */
function send(sent: Sent, source: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({
      host: "127.0.0.1",
      port: appPort,
      localAddress: source,
      method: sent.method,
      path: sent.target,
      headers: {
        ...(sent.body !== undefined && !sent.chunked
          ? { "content-length": Buffer.byteLength(sent.body) }
          : {}),
        ...sent.headers,
        connection: "close",
      },
      agent: false,
    });
    const timer = setTimeout(() => {
      request.destroy();
      reject(new Error(`no answer within ${perRequestMs} ms`));
    }, perRequestMs);
    request.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    request.on("response", (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        clearTimeout(timer);
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks).toString("utf8"),
        });
      });
      response.on("error", reject);
    });
    if (sent.chunked && sent.body !== undefined) {
      // No Content-Length: the body goes out in pieces (Transfer-Encoding: chunked).
      const body = Buffer.from(sent.body);
      for (let at = 0; at < body.length; at += 16 * 1024) request.write(body.subarray(at, at + 16 * 1024));
      request.end();
    } else request.end(sent.body);
  });
}

/** Percent-encoding of any UTF-16 text: a lone surrogate as its three WTF-8 bytes (%ED%A0%80). */
function percentEncode(text: string): string {
  let encoded = "";
  for (const character of text) {
    const unit = character.charCodeAt(0);
    encoded +=
      character.length === 1 && unit >= 0xd800 && unit <= 0xdfff
        ? [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]
            .map((byte) => `%${byte.toString(16).toUpperCase()}`)
            .join("")
        : encodeURIComponent(character);
  }
  return encoded;
}

/** Page templates under app/, as paths with `{param}`. */
function pageTemplates(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === "page.tsx") {
        const relative = path.relative(path.join(root, "app"), dir).replace(/\[(\w+)\]/g, "{$1}");
        found.push(`/${relative}`);
      }
    }
  };
  walk(path.join(root, "app"));
  return found;
}

const badEscapes = ["%ff", "%F0", "%E0%A4%A", "%", "%zz", "%ED%A0%80", "%C0%AF", "%00", "a%00b", "%F0%9F%98"];
const hostileStrings = [
  "\u0000",
  "a\u0000b",
  "\ud800",
  "x\udfffy",
  "\ud83d",
  "%00",
  "' OR 1=1 --",
  "<script>alert(1)</script>",
  "../../etc/passwd",
  "x".repeat(70_000),
  "\u202e\ufeff",
  "1e309",
  "-1",
  "",
];
const hostileValues: unknown[] = [
  ...hostileStrings,
  null,
  true,
  0,
  -1,
  1e308,
  Number.MAX_SAFE_INTEGER,
  [],
  ["\u0000"],
  {},
  { "\u0000": "x" },
  { nested: { deeper: ["\ud800"] } },
];
const commonFields = [
  "amount",
  "currency",
  "description",
  "merchantOrderId",
  "customerName",
  "customerEmail",
  "clientReferenceId",
  "metadata",
  "successUrl",
  "cancelUrl",
  "reason",
  "invoiceId",
  "name",
  "url",
  "email",
  "token",
  "code",
  "redirect_uris",
  "client_name",
  "client_id",
  "grant_type",
  "network",
  "address",
  "paylinkId",
  "sessionId",
  "events",
  "enabled",
];
const authorizations = [
  undefined,
  "Bearer sk_live_wrongwrongwrongwrong",
  "Bearer sk_agent_\u00ff",
  `Basic ${Buffer.from("%ff:%00").toString("base64")}`,
  `Basic ${Buffer.from("a:b").toString("base64")}`,
  "Basic %%%",
  "Bearer",
  `Bearer ${"x".repeat(8000)}`,
  "Digest nonsense",
];
const wrongMethods = ["PUT", "PATCH", "DELETE", "POST", "GET"];

/** Something that is not ours: a stack frame, a library's name, a file path. */
const leak =
  /\bprisma\b|\bviem\b|node_modules|\/work\/|\/home\/|\bat \S+ \(|\.tsx?:\d+|\bstack\b|ECONNREFUSED|invalid byte sequence/i;

test("hostile input: no 5xx, no hang, no leak, the envelope under /api/", async ({ merchant }) => {
  test.setTimeout(180_000);
  const next = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];

  const openapi = (await (await fetch(`http://127.0.0.1:${appPort}/api/openapi.json`)).json()) as {
    paths: Record<
      string,
      Record<string, { requestBody?: { content?: Record<string, { schema?: unknown }> } }>
    >;
  };
  const routes = readRouteMethods(path.join(root, "app"));
  type Target = { template: string; methods: string[]; fields: string[] };
  const targets = new Map<string, Target>();
  const fieldsOf = (schema: unknown): string[] => {
    const found = new Set<string>();
    const walk = (value: unknown, depth: number) => {
      if (depth > 4 || value === null || typeof value !== "object") return;
      const properties = (value as { properties?: Record<string, unknown> }).properties;
      if (properties) for (const name of Object.keys(properties)) found.add(name);
      for (const item of Object.values(value)) walk(item, depth + 1);
    };
    walk(schema, 0);
    return [...found];
  };
  for (const [template, operations] of Object.entries(openapi.paths)) {
    const fields = Object.values(operations).flatMap((operation) =>
      Object.values(operation.requestBody?.content ?? {}).flatMap((content) => fieldsOf(content.schema)),
    );
    targets.set(template, { template, methods: Object.keys(operations).map((m) => m.toUpperCase()), fields });
  }
  for (const route of routes) {
    const template = route.template.replace(/\[\.\.\.(\w+)\]/g, "{$1}").replace(/\[(\w+)\]/g, "{$1}");
    const known = targets.get(template);
    targets.set(template, { template, methods: route.methods, fields: known?.fields ?? [] });
  }
  // next-auth's actions, each behind the one catch-all route file.
  targets.delete("/api/auth/{nextauth}");
  const signInFields = ["email", "csrfToken", "callbackUrl", "json", "token", "data"];
  for (const action of [
    "signin",
    "signin/email",
    "signout",
    "callback/email",
    "csrf",
    "session",
    "providers",
    "error",
    "verify-request",
    "_log",
    "{action}",
  ]) {
    targets.set(`/api/auth/${action}`, {
      template: `/api/auth/${action}`,
      methods: ["GET", "POST"],
      fields: signInFields,
    });
  }
  const pages = pageTemplates();
  for (const page of pages) targets.set(page, { template: page, methods: ["GET", "POST"], fields: [] });
  const all = [...targets.values()];
  expect(all.length).toBeGreaterThan(60);

  // A real id of the merchant's, so some hostile requests get past "not found" into validation.
  const created = await send(
    {
      method: "POST",
      target: "/api/checkout-sessions",
      headers: {
        authorization: `Bearer ${merchant.apiKey}`,
        "content-type": "application/json",
        "idempotency-key": `fuzz-${Date.now()}`,
      },
      body: JSON.stringify({ amount: "5.00", currency: "USD", description: "fuzz" }),
    },
    "127.1.0.1",
  );
  const realId = created.status === 200 ? (JSON.parse(created.body) as { id: string }).id : "cs_missing";

  const fill = (template: string) =>
    template.replace(/\{\w+\}/g, () => {
      const roll = next();
      return roll < 0.5
        ? pick(badEscapes)
        : roll < 0.7
          ? realId
          : percentEncode(String(pick(hostileValues)).slice(0, 200));
    });
  // Bodies the routes accept, so a single hostile field gets past the schema to the database.
  const validBodies: Record<string, Record<string, unknown>> = {
    "/api/checkout-sessions": { amount: "5.00", currency: "USD" },
    "/api/agent/setup/start": { agentName: "fuzz" },
    "/api/private/paylinks/create": { name: "Fuzz", amount: "5.00", currency: "USD" },
    "/oauth/register": { redirect_uris: ["http://127.0.0.1:1/cb"], token_endpoint_auth_method: "none" },
  };
  const jsonBody = (fields: string[], template = "") => {
    const body: Record<string, unknown> = { ...validBodies[template] };
    if (validBodies[template]) {
      body[
        pick([...Object.keys(body), "description", "merchantOrderId", "customerName", "clientReferenceId"])
      ] = pick(hostileStrings.slice(0, 5));
      return JSON.stringify(body);
    }
    const names = fields.length ? fields : commonFields;
    for (let i = 0; i < 1 + Math.floor(next() * 4); i++) body[pick(names)] = pick(hostileValues);
    if (next() < 0.3) body.metadata = { order: pick(hostileStrings), [pick(["a", "\u0000", "\ud800"])]: "x" };
    return JSON.stringify(body);
  };

  const cases: Sent[] = [];
  const auth = () => (next() < 0.5 ? `Bearer ${merchant.apiKey}` : pick(authorizations));
  // Every page with every method it does not take.
  for (const page of pages) {
    for (const method of ["PUT", "PATCH", "DELETE", "OPTIONS"]) {
      cases.push({ method, target: page.replace(/\{\w+\}/g, realId), refusedWith: "GET, HEAD, POST" });
    }
  }
  // Every sign-in action and the Inngest endpoint with every method.
  for (const target of all.filter(({ template }) => /^\/api\/(auth\/|inngest$)/.test(template))) {
    for (const method of ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]) {
      const form = method === "POST" && next() < 0.5;
      cases.push({
        method,
        target: fill(target.template),
        headers: form ? { "content-type": "application/x-www-form-urlencoded" } : {},
        body: form ? `email=${pick(badEscapes)}&csrfToken=x&callbackUrl=${pick(badEscapes)}` : undefined,
      });
    }
  }
  // Every target with every bad escape in its path at least once, and a wrong method.
  for (const target of all) {
    const pathOnly = target.template.replace(/\{\w+\}/g, "x");
    for (const badEscape of badEscapes) {
      cases.push({
        method: pick(target.methods),
        target: `${pathOnly}/${badEscape}`.replace("/x/", `/${badEscape}/`),
      });
    }
    const wrong = wrongMethods.find((method) => !target.methods.includes(method));
    if (wrong)
      cases.push({
        method: wrong,
        target: fill(target.template),
        headers: { authorization: `Bearer ${merchant.apiKey}` },
      });
  }
  // Each hostile text in each field of a body the route otherwise accepts, with a valid key.
  for (const [template, valid] of Object.entries(validBodies)) {
    for (const field of [...Object.keys(valid), "description", "merchantOrderId", "customerName"]) {
      for (const hostile of hostileStrings.slice(0, 5)) {
        cases.push({
          method: "POST",
          target: template,
          headers: { authorization: `Bearer ${merchant.apiKey}`, "content-type": "application/json" },
          body: JSON.stringify({ ...valid, [field]: hostile }),
        });
      }
    }
  }
  // The rest at random: hostile bodies, queries and credentials on every target.
  while (cases.length < budget) {
    const target = pick(all);
    const method = next() < 0.85 ? pick(target.methods) : pick(wrongMethods);
    const query =
      next() < 0.4
        ? `?${pick(["page", "rows", "client_id", "redirect_uri", "q", "x"])}=${pick([...badEscapes, percentEncode(String(pick(hostileValues)).slice(0, 2000))])}`
        : "";
    const authorization = auth();
    const headers: Record<string, string> = authorization ? { authorization } : {};
    const kind = next();
    let body: string | Buffer | undefined;
    let chunked = false;
    if (method !== "GET") {
      if (kind < 0.5) {
        headers["content-type"] = "application/json";
        body = jsonBody(target.fields, next() < 0.5 ? target.template : "");
      } else if (kind < 0.6) {
        headers["content-type"] = "application/json";
        body = `${"[".repeat(5000)}${"]".repeat(5000)}`;
      } else if (kind < 0.65) {
        headers["content-type"] = "application/json";
        body = JSON.stringify({ description: "x".repeat(200_000) });
        chunked = next() < 0.5;
      } else if (kind < 0.72) {
        headers["content-type"] = "application/json";
        body = pick(['{"a":', "\u0000", "nul\u0000l", '{"a":"\\ud800"}', '{"a":"\\u0000"}', "[1,2"]);
        chunked = next() < 0.5;
      } else if (kind < 0.8) {
        headers["content-type"] = "application/x-www-form-urlencoded";
        body = `${pick(commonFields)}=${pick(badEscapes)}&email=a%00b&grant_type=refresh_token&client_id=%00`;
      } else if (kind < 0.9) {
        headers["content-type"] = "multipart/form-data; boundary=zz";
        body = pick([
          "garbage{{",
          '--zz\r\nContent-Disposition: form-data; name="1_$ACTION_ID_x"\r\n\r\n\u0000\r\n--zz--',
          Buffer.alloc(300_000, 0x41),
        ]);
        chunked = next() < 0.5;
      } else {
        headers["next-action"] = pick(["0".repeat(40), "7f".repeat(21), "x"]);
        headers["content-type"] = "text/plain;charset=UTF-8";
        body = pick(["garbage{{", '["$K1"]', '["$Q\u0000"]', "[".repeat(3000)]);
      }
    }
    cases.push({ method, target: fill(target.template) + query, headers, body, chunked });
  }

  const problems: string[] = [];
  let sent = 0;
  const worker = async (lane: number) => {
    for (let index = lane; index < cases.length; index += 6) {
      const item = cases[index];
      const label = `${item.method} ${item.target.slice(0, 120)} (case ${index}, seed ${seed})`;
      let answer: Answer;
      try {
        answer = await send(item, `127.1.${Math.floor(index / 200)}.${(index % 200) + 2}`);
      } catch (error) {
        problems.push(`${label}: ${(error as Error).message}`);
        continue;
      }
      sent++;
      if (answer.status >= 500) problems.push(`${label}: ${answer.status} ${answer.body.slice(0, 160)}`);
      const text = answer.body.slice(0, 20_000);
      if (leak.test(text)) problems.push(`${label}: leaks ${text.match(leak)?.[0]}: ${text.slice(0, 160)}`);
      const pathname = item.target.split("?")[0];
      // x402's 402 is the payment protocol's own answer (docs/api.md, "x402").
      if (
        pathname.startsWith("/api/") &&
        answer.status >= 400 &&
        answer.status !== 402 &&
        item.method !== "HEAD"
      ) {
        let code: unknown;
        try {
          code = (JSON.parse(answer.body) as { error?: { code?: unknown } }).error?.code;
        } catch {
          code = undefined;
        }
        if (typeof code !== "string") problems.push(`${label}: ${answer.status} without the JSON envelope`);
      }
      if (answer.status === 405 && !answer.headers.allow) problems.push(`${label}: 405 without Allow`);
      if (item.refusedWith && (answer.status !== 405 || answer.headers.allow !== item.refusedWith)) {
        problems.push(
          `${label}: ${answer.status} (Allow ${answer.headers.allow}), not 405 (Allow ${item.refusedWith})`,
        );
      }
      const ours =
        pathname.startsWith("/api/") || badEscapes.some((badEscape) => item.target.includes(badEscape));
      if (answer.status >= 400 && ours && !answer.headers["x-request-id"]) {
        problems.push(`${label}: ${answer.status} without X-Request-Id`);
      }
    }
  };
  await Promise.all([0, 1, 2, 3, 4, 5].map(worker));
  expect(sent).toBeGreaterThan(budget * 0.95);
  expect(problems.slice(0, 40), `${problems.length} problems in ${cases.length} requests`).toEqual([]);
  // Every route the app router lists has an answer for a wrong method (Allow names the right ones).
  expect(allowedMethods(routes, "/api/checkout-sessions")).toBe("OPTIONS, POST");
});
