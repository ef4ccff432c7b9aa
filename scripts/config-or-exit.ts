import { ConfigError, config } from "../lib/config";

/** The configuration, or exit 1 with one line per problem (an operator's command, not a stack trace). */
export function configOrExit(): ReturnType<typeof config> {
  try {
    return config();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}
