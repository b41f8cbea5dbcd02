import 'server-only';

/**
 * The only door from app/ into brokers. Adds timeouts, maps unknown errors to
 * BrokerUnavailable (without leaking URLs), and refuses actions the broker's capabilities or
 * read-only configuration do not allow. Authorisation happens before this, in lib/auth's gate.
 *
 * Callers import from here; the door's parts are ./service-core.ts (timeouts, errors, the
 * capability check), ./service-overview.ts, ./service-reads.ts and ./service-actions.ts.
 */

export { READ_ONLY_WHY, hasNul, requireCapability, toConsoleError, withTimeout } from './service-core';
export {
  NO_FAMILY_WHY,
  NO_FATE_WHY,
  bootCheck,
  brokerList,
  brokerModel,
  consoleEnvironment,
  health,
  overview,
  overviewAll,
  overviewOutcome,
  type BootRefusal,
  type OverviewOutcome,
} from './service-overview';
export {
  checkAccess,
  deadGroups,
  deadHistogram,
  deadIds,
  diagnose,
  findInBroker,
  getDead,
  getFamily,
  getResult,
  getTask,
  listDead,
  listResults,
  listTasks,
  listWorkers,
  taskNames,
  taskSightings,
} from './service-reads';
export {
  convert,
  deleteFamily,
  discardDead,
  enqueue,
  pacesReplay,
  previewEnqueue,
  previewReplayEdited,
  purge,
  replayDead,
  replayDeadPaced,
  replayEdited,
  revoke,
  setQueuePaused,
} from './service-actions';
