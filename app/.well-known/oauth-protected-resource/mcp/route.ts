// RFC 9728 path-inserted form for the resource {base_url}/mcp; the same document as the root.
export { GET, OPTIONS } from "../route";

export const dynamic = "force-dynamic";
