// Starts tests/py/seeder_pg.py (the real potatoq on PostgreSQL) for tests and the benchmark.
import { spawnPySeeder, type PySeeder } from '@/tests/support/potatoq-seeder';

export function spawnSeeder(url: string, options: Record<string, unknown>): PySeeder {
  return spawnPySeeder('seeder_pg.py', [url, JSON.stringify(options)]);
}
