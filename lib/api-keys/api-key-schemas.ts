import { z } from "zod";
import { text } from "../validation/fields";

export const createApiKeySchema = z.strictObject({ name: text(100) });

export const revokeApiKeySchema = z.strictObject({ apiKeyId: z.string().max(64) });
