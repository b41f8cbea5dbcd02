import 'server-only';
// The Redis storage layer's reads, one import for the adapter (split by concern below).
export { readOverview, MAX_QUEUES, DEAD_SCAN, MAX_BANDS, type Overview, type QueueRow } from './reads-queues';
export { listTasks, listDead, zsetPage, type SetKind } from './reads-pages';
export { readTask, listResults, readWorkers, registeredTaskNames, type TaskDetail, type ResultRow, type WorkerRow } from './reads-misc';
export { checkServer, connectRedis, type ServerCheck } from '@/lib/transports/redis/server';
export type { TaskRow, Page, PayloadInfo, HashState } from './rows';
