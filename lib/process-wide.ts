// Next.js's bundles and the server each load their own copy of a module, and the bundler may load
// one more than once (the instrumentation hook apart from the routes): state that must be one per
// process hangs off globalThis, under a registered symbol.

/** The process's one `name` value, created on first use. */
export function processWide<T>(name: string, create: () => T): T {
  const holder = globalThis as Record<symbol, unknown>;
  const key = Symbol.for(`crypto-checkout.${name}`);
  holder[key] ??= create();
  return holder[key] as T;
}
