import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from './migrations.generated.ts';
import { renderMigrationsModule } from '../../../../scripts/embed-migrations.js';
import { readFileSync } from 'node:fs';

describe('embedded migrations', () => {
	it('match drizzle/*.sql (run `npm run db:generate` after changing the schema)', () => {
		const current = readFileSync(new URL('./migrations.generated.ts', import.meta.url), 'utf8');
		expect(current).toBe(renderMigrationsModule());
		expect(MIGRATIONS.length).toBeGreaterThan(0);
	});
});
