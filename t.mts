const { applyMigrations } = await import("./lib/db/schema-engine.ts");
console.log("before", process.getActiveResourcesInfo());
await applyMigrations("postgresql://postgres@127.0.0.1:5432/cc_scratch");
setTimeout(() => console.log("after", process.getActiveResourcesInfo()), 100);
