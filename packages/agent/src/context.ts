import { checkedApiBaseUrl } from "./config/base-url";
import { readConfig, type StoredConfig, updateConfig } from "./config/config-file";
import { readSettings, type Settings } from "./config/settings";
import { requireToken } from "./http/api-client";

/** What every operation needs: the environment's settings and the stored configuration. */
export type Kit = {
  settings: Settings;
  readConfig(): Promise<StoredConfig>;
  updateConfig(change: (config: StoredConfig) => void): Promise<StoredConfig>;
  /** The credential for merchant calls; throws an auth error when there is none. */
  token(): Promise<string>;
};

export function createKit(env: NodeJS.ProcessEnv = process.env): Kit {
  const settings = readSettings(env);
  const kit: Kit = {
    settings,
    readConfig: () => readConfig(settings.configHome),
    updateConfig: (change) => updateConfig(settings.configHome, change),
    token: async () => {
      // No credential is handed out for a base URL it must not travel to (callApi checks again).
      checkedApiBaseUrl(settings.apiBaseUrl);
      const stored = (await kit.readConfig()).credential;
      // A credential belongs to the service that issued it; another base URL falls back to the key.
      const usable = stored && stored.apiBaseUrl === settings.apiBaseUrl ? stored.token : undefined;
      return requireToken(usable ?? settings.apiKey);
    },
  };
  return kit;
}
