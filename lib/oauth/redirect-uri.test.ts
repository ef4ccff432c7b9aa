import { describe, expect, it } from "vitest";
import { matchesRegisteredRedirectUri, redirectUriProblem } from "./redirect-uri";

describe("redirectUriProblem", () => {
  it.each([
    ["https://app.example/callback", null],
    ["http://127.0.0.1:3000/callback", null],
    ["http://localhost:8080/cb", null],
    ["http://[::1]:8080/cb", null],
    ["cursor://anysphere.cursor-retrieval/oauth/callback", "must use https (http only on loopback)"],
    ["http://app.example/callback", "must use https (http only on loopback)"],
    ["https://app.example/callback#frag", "must not contain a fragment"],
    ["https://user:pw@app.example/cb", "must not contain credentials"],
    ["/relative", "must be an absolute URL"],
  ])("%s → %s", (uri, problem) => {
    expect(redirectUriProblem(uri)).toBe(problem);
  });
});

describe("matchesRegisteredRedirectUri", () => {
  const registered = ["https://app.example/callback", "http://127.0.0.1:3000/callback"];
  it.each([
    ["https://app.example/callback", true],
    ["https://app.example/callback/", false],
    ["https://app.example/callback?x=1", false],
    ["https://app.example:8443/callback", false],
    ["http://127.0.0.1:51234/callback", true],
    ["http://127.0.0.1:51234/other", false],
    ["http://localhost:3000/callback", false],
    ["https://evil.example/callback", false],
  ])("%s → %s", (uri, expected) => {
    expect(matchesRegisteredRedirectUri(uri, registered)).toBe(expected);
  });
});
