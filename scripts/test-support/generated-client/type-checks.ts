// Compiled (never run) with money-path.ts: the generated types are real, so misuse does not compile.
import createClient from "openapi-fetch";
import type { paths } from "./.generated/api";

const client = createClient<paths>({ baseUrl: "http://localhost:3000" });

export function misuse() {
  // @ts-expect-error amounts are decimal strings, never numbers
  void client.POST("/api/checkout-sessions", { body: { amount: 49, currency: "USD" } });
  // @ts-expect-error only the documented pricing currencies
  void client.POST("/api/checkout-sessions", { body: { amount: "49.00", currency: "XXX" } });
  // @ts-expect-error the path needs its id
  void client.GET("/api/checkout-sessions/{id}", {});
  // @ts-expect-error no such operation
  void client.GET("/api/checkout-sessions/{id}/refund", { params: { path: { id: "ycs_1" } } });
}
