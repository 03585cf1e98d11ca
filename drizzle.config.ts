import { defineConfig } from 'drizzle-kit';

// `npm run db:generate` writes SQL migrations into drizzle/ from the schema; the app applies them
// at start-up (src/lib/server/db/migrate.ts), on PGlite and PostgreSQL alike.
export default defineConfig({
	dialect: 'postgresql',
	schema: './src/lib/server/db/schema.ts',
	out: './drizzle'
});
