// `npm run db:migrate`: applies pending migrations to DATABASE_URL, or to the embedded database.
import { applyMigrations } from "../lib/db/schema-engine";
import { withDatabase } from "./database";

const applied = await withDatabase((url) => applyMigrations(url), { migrate: false });
console.log(applied.length ? `applied: ${applied.join(", ")}` : "database is up to date");
