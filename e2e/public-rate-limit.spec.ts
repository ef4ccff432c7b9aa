import { healthy, startApp, stopApp, waitUntil } from "./app-instances";
import { expect, test } from "./fixtures";

// A client that has spent its public budget, on an instance of its own with a small budget:
// every page and route that counts against it answers 429 with Retry-After (a page that says so
// for pages, the error body for API routes), never a 500.

const port = Number(process.env.E2E_PORT ?? 3100) + 6;
const publicPerMinute = 5;
const url = (path: string) => `http://127.0.0.1:${port}${path}`;

const pages = [
  "/oauth/authorize?response_type=code&client_id=unknown-client",
  "/pay/ycs_0000000000000000000000",
  // A paylink's pay address (next.config.ts sends it to a route that opens a session).
  "/pay/0b6f3a52-7d1e-4c1a-9a44-5b0c7b0e8f21",
  "/agent/setup",
  "/agent/register/confirm?token=unknown",
];

const apiRoutes: { path: string; method?: "POST"; body?: unknown; error: (body: unknown) => void }[] = [
  { path: "/api/public/payments/inv_missing", error: (body) => expectEnvelope(body) },
  { path: "/api/public/checkout-sessions/ycs_missing", error: (body) => expectEnvelope(body) },
  {
    path: "/api/agent/setup/start",
    method: "POST",
    body: { agentName: "limited" },
    error: (body) => expectEnvelope(body),
  },
  {
    path: "/oauth/token",
    method: "POST",
    body: { grant_type: "authorization_code" },
    error: (body) => expect(body).toMatchObject({ error: "temporarily_unavailable" }),
  },
];

function expectEnvelope(body: unknown) {
  expect(body).toMatchObject({ error: { type: "rate_limit_error", code: "rate_limited" } });
}

test("a client over its public budget gets 429 with Retry-After from every limited page and route", async ({
  page,
}) => {
  test.setTimeout(240_000);
  const app = startApp(port, { env: { SERVICE_RATE_LIMIT_PUBLIC_PER_MINUTE: String(publicPerMinute) } });
  try {
    await waitUntil(healthy(port), 120_000, "the limited instance");

    // Within the budget the page answers as usual (it refuses the unknown client); the next load
    // is refused for the budget.
    const statuses: number[] = [];
    for (let i = 0; i <= publicPerMinute; i++) {
      statuses.push((await fetch(url(pages[0]), { redirect: "manual" })).status);
    }
    expect(statuses.slice(0, -1).every((status) => status < 500)).toBe(true);
    expect(statuses.at(-1)).toBe(429);

    for (const path of pages) {
      const response = await fetch(url(path), { redirect: "manual" });
      expect(response.status, path).toBe(429);
      expect(response.headers.get("retry-after"), path).toMatch(/^[1-9]\d*$/);
      expect(response.headers.get("content-type"), path).toMatch(/^text\/html/);
      expect(response.headers.get("x-request-id"), path).toBeTruthy();
      expect(await response.text(), path).toContain("Too many requests from your network");
    }
    for (const route of apiRoutes) {
      const response = await fetch(url(route.path), {
        method: route.method ?? "GET",
        redirect: "manual",
        ...(route.body
          ? { body: JSON.stringify(route.body), headers: { "content-type": "application/json" } }
          : {}),
      });
      expect(response.status, route.path).toBe(429);
      expect(response.headers.get("retry-after"), route.path).toMatch(/^[1-9]\d*$/);
      route.error(await response.json());
    }

    // What a person sees in the browser.
    const response = await page.goto(url("/agent/setup"));
    expect(response?.status()).toBe(429);
    await expect(page.getByRole("alert")).toContainText(
      /Too many requests from your network\. Wait \d+ seconds/,
    );
  } finally {
    await stopApp(app);
  }
});
