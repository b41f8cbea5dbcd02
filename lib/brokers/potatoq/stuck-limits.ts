import 'server-only';

/** Running rows checked per diagnosis, oldest claim first (workers hold few; a runaway fleet
 *  is still read in one bounded query). */
export const RUNNING_CHECK_LIMIT = 500;
/** Overdue scheduled rows counted per diagnosis before it says "more than". */
export const OVERDUE_COUNT_CAP = 10_000;
/** Payloads bigger than this are not parsed for their time limit. */
export const STUCK_PAYLOAD_LIMIT = 65_536;
