import { describe, expect, it } from "vitest";
import { rateLimited } from "../errors";
import { tooManyRequestsPage } from "../http/error-page";
import { isLimitedPageLoad } from "./limit-page-load";

describe("isLimitedPageLoad", () => {
  it.each([
    ["GET", "/oauth/authorize", true],
    ["HEAD", "/oauth/authorize", true],
    ["GET", "/pay/ycs_abc", true],
    ["GET", "/pay/0b6f3a52-7d1e-4c1a-9a44-5b0c7b0e8f21", true],
    ["GET", "/agent/setup", true],
    ["GET", "/agent/register/confirm", true],
    ["GET", "/refund/Zm9vYmFyYmF6cXV4cXV1eHF1dXhxdXV4cXV1eA", true],
    ["GET", "/receipt/inv_abc.Zm9vYmFy", true],
    // Routes count in their own wrappers; server actions of these pages are not page loads.
    ["GET", "/pay/ycs_abc/start", false],
    ["POST", "/agent/setup", false],
    ["POST", "/oauth/authorize/decision", false],
    ["POST", "/refund/Zm9vYmFyYmF6cXV4cXV1eHF1dXhxdXV4cXV1eA", false],
    ["GET", "/api/public/payments/inv_1", false],
    // Pages that look nothing up for an anonymous caller.
    ["GET", "/login", false],
    ["GET", "/dashboard", false],
    ["GET", "/", false],
    ["GET", "/oauth/authorize/", false],
    ["GET", "/agent/setup/extra", false],
  ])("%s %s → %s", (method, pathname, limited) => {
    expect(isLimitedPageLoad(method, pathname)).toBe(limited);
  });
});

describe("tooManyRequestsPage", () => {
  it.each([
    [1, "Wait a second"],
    [42, "Wait 42 seconds"],
  ])("answers 429 with Retry-After %s and says so in HTML", async (seconds, text) => {
    const response = tooManyRequestsPage(rateLimited(seconds));
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe(String(seconds));
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-store");
    const html = await response.text();
    expect(html).toContain("<title>Too many requests</title>");
    expect(html).toContain(text);
    expect(html).not.toContain("<script");
  });
});
