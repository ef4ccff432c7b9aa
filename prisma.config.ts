import { defineConfig } from "prisma/config";

// Only `prisma generate` reads this file. Migrations run through scripts/db-migrate.ts
// (the WASM schema engine), and the runtime connects through the pg driver adapter.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
});
