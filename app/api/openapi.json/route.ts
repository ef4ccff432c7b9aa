import { publicRoute } from "@/lib/http/route";
import { openApiDocument } from "./openapi-document";

export const GET = publicRoute(async () => ({ body: openApiDocument() }));
