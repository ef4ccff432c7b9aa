import { publicRoute } from "@/lib/http/route";
import { openApiDocument } from "@/lib/openapi/openapi-document";

export const GET = publicRoute(async () => ({ body: openApiDocument() }));
