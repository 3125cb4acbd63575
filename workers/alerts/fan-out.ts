import { Queue, type Job } from 'bullmq';
import type { RedisConnection as Redis } from '../../src/bus/redis-connection.js';
import type { GameEvent } from '../../src/model/events.js';
import { liveBots } from '../bots.js';
import { EVENT_JOB_OPTIONS } from '../producer.js';
import { EVENTS_QUEUE, bullPrefix, queueName } from '../queues.js';

/** The shared events queue handed out to every live bot's own queue. */
export interface BotFanOut {
  /**
   * One event of the shared queue, copied into each live bot's queue under the same job id: a retry
   * after a partial copy, or the same event from a replay, adds nothing to a bot that has it. Bots
   * are read per event, so one that starts gets the events from then on (the shared queue holds
   * what was added while no bot ran, and the first bot to start hands it out).
   */
  fanOut(job: Job<GameEvent>): Promise<string>;
  /** Every bot queue opened so far, this process's bot's among them. */
  queues(): Queue[];
}

export function botFanOut(commands: Redis, prefix: string, bot: string, ownQueue: Queue): BotFanOut {
  // Every live bot's events queue, opened on first use.
  const botQueues = new Map<string, Queue>([[bot, ownQueue]]);

  function queueOf(name: string): Queue {
    let queue = botQueues.get(name);
    if (!queue) {
      const queueOfBot = queueName(EVENTS_QUEUE, name);
      queue = new Queue(queueOfBot, { connection: commands, prefix: bullPrefix(prefix, queueOfBot) });
      queue.on('error', () => undefined);
      botQueues.set(name, queue);
    }
    return queue;
  }

  return {
    async fanOut(job) {
      // This process's bot always: a Redis that lost its keys (restarted without persistence) has
      // forgotten the bots until their next heartbeat.
      const bots = [...new Set([bot, ...(await liveBots(commands, prefix))])];
      await Promise.all(
        bots.map((name) => queueOf(name).add(job.name, job.data, { ...EVENT_JOB_OPTIONS, jobId: job.id })),
      );
      return `bots:${bots.length}`;
    },
    queues: () => [...botQueues.values()],
  };
}
