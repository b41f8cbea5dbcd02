// potatoq's RabbitMQ object names (brokers/rabbitmq.py 26.1a8).
import { ConsoleError } from '@/lib/brokers/errors';

export const DLX = 'potatoq.dlx';
export const DELIVERY_EXCHANGE = 'potatoq.delivery';
export const DELAY_LEVELS = 28;
export const delayQueue = (level: number) => `potatoq.delay.L${String(level).padStart(2, '0')}`;
export const DELAY_QUEUES = Array.from({ length: DELAY_LEVELS }, (_, i) => delayQueue(DELAY_LEVELS - 1 - i));
export const dlqOf = (queue: string) => `${queue}.dlq`;

/** A potatoq work queue: quorum, dead-lettering into `potatoq.dlx` with its own name as key. */
export function isPotatoqQueue(name: string, args: Record<string, unknown>): boolean {
  return args['x-dead-letter-exchange'] === DLX && args['x-dead-letter-routing-key'] === name && !name.includes('.');
}

/** potatoq's `_check_queue_name`: names become routing-key words of the delay cascade. */
export function checkQueueName(name: string): void {
  if (/[.#*]/.test(name)) {
    throw new ConsoleError('InvalidInput', `RabbitMQ queue names can't contain '.', '#' or '*': ${JSON.stringify(name)}`, {
      queue: "RabbitMQ queue names can't contain '.', '#' or '*'",
    });
  }
}

export const DELAY_REFUSAL = "Delays (eta) aren't supported from other producers on RabbitMQ: send the task when it's due";
export const V3_BROWSE_REFUSAL =
  "RabbitMQ 3.x: potatoq's DLQs are declared with x-delivery-limit -1, which drops a message on its first requeue, so browsing would delete them";
