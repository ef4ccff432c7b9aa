import { z } from "zod";

// The objects, the list envelope and the error envelope are the agent kit's shapes
// (crypto-checkout-agent/shapes), shared with the MCP tools; this is the REST API's own wrapper.

/** `{success: true, data}` as /api/private/* answers. */
export const privateEnvelope = <T extends z.ZodType>(data: T) => z.object({ success: z.literal(true), data });
