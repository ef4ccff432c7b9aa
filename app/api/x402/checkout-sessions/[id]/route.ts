import { x402Route } from "@/lib/http/x402-route";

export const GET = x402Route("checkout_session");
