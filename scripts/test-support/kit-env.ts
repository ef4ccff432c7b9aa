/**
 * The environment of an agent kit process (CLI or local MCP server) that talks to `appUrl`'s REST
 * API with the organization's API key, its config kept in `configHome` and nothing else inherited.
 */
export function kitEnv(configHome: string, appUrl: string, apiKey: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "",
    HOME: configHome,
    SERVICE_CONFIG_HOME: configHome,
    SERVICE_API_BASE_URL: `${appUrl}/api`,
    SERVICE_API_KEY: apiKey,
  };
}
