import { homedir } from "node:os";
import path from "node:path";

/**
 * The credential directory: SERVICE_CONFIG_HOME, else the platform's per-user configuration
 * folder (XDG on Linux, Application Support on macOS, %APPDATA% on Windows).
 */
export function configHome(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (env.SERVICE_CONFIG_HOME) return path.resolve(env.SERVICE_CONFIG_HOME);
  const home = homedir();
  if (platform === "win32") {
    return path.join(env.APPDATA ?? path.join(home, "AppData", "Roaming"), "crypto-checkout");
  }
  if (platform === "darwin") return path.join(home, "Library", "Application Support", "crypto-checkout");
  return path.join(env.XDG_CONFIG_HOME || path.join(home, ".config"), "crypto-checkout");
}
