/** The part of `cloudflare:workers` these tests use: the main module's exports, as loopback fetchers. */
declare module "cloudflare:workers" {
  export const exports: {
    readonly default: { fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> };
  };
}

/** The part of `cloudflare:test` (@cloudflare/vitest-plugin) the queue and cron tests use. */
declare module "cloudflare:test" {
  export const env: Record<string, unknown>;
  export interface TestExecutionContext {
    waitUntil(promise: Promise<unknown>): void;
  }
  export interface TestMessageBatch<Body> {
    readonly queue: string;
    readonly messages: readonly {
      readonly body: Body;
      readonly attempts: number;
      ack(): void;
      retry(options?: { delaySeconds?: number }): void;
    }[];
  }
  export function createExecutionContext(): TestExecutionContext;
  export function waitOnExecutionContext(ctx: TestExecutionContext): Promise<void>;
  export function createScheduledController(options?: { scheduledTime?: Date | number; cron?: string }): unknown;
  export function createMessageBatch<Body = unknown>(
    queueName: string,
    messages: { id: string; timestamp: Date | number; attempts: number; body: Body }[],
  ): TestMessageBatch<Body>;
  export function getQueueResult(
    batch: TestMessageBatch<unknown>,
    ctx: TestExecutionContext,
  ): Promise<{
    outcome: string;
    ackAll: boolean;
    explicitAcks: string[];
    retryMessages: { msgId: string; delaySeconds?: number }[];
  }>;
}
