import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * One request made with a provider's API key to the REST API, as the integrator's console shows
 * it: what was asked and what was answered, never a header (the `Authorization` header least of
 * all). Its bodies are rows of their own (RequestLogBody.ts), each kept once per provider
 * however many requests sent or received it. Rows are kept 7 days and at most a configured number
 * per provider (retention.ts).
 */
@Entity({ tableName: 'request_log' })
@Index({ properties: ['providerId', 'id'] })
@Index({ properties: ['requestId'] })
@Index({ properties: ['createdAt'] })
export class RequestLogEntry {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  /** Not foreign keys: the platform knows no provider or key entity, and a row outlives neither for long. */
  @Property({ type: 'integer' })
  providerId!: number;

  @Property({ type: 'integer' })
  apiKeyId!: number;

  @Property({ type: 'string', length: 64 })
  apiKeyPrefix!: string;

  /** The answer's `X-Request-Id`: the caller's own when it sent one, so not unique. */
  @Property({ type: 'string', length: 64 })
  requestId!: string;

  /** When the request arrived. */
  @Property({ type: 'datetime' })
  createdAt!: Date;

  @Property({ type: 'string', length: 10 })
  method!: string;

  /** The path as requested, without its query. */
  @Property({ type: 'text' })
  path!: string;

  /** The query string as requested, without its `?`; null when there was none. */
  @Property({ type: 'text', nullable: true })
  query: string | null = null;

  /** The operation of the route that answered; null when no route did (an unknown path). */
  @Property({ type: 'string', length: 100, nullable: true })
  operationId: string | null = null;

  @Property({ type: 'integer' })
  status!: number;

  @Property({ type: 'double' })
  durationMs!: number;

  /** The key of the request's body in `request_log_body`; null when none was sent. */
  @Property({ type: 'string', length: 64, nullable: true })
  requestBodyKey: string | null = null;

  /** The key of the answer's JSON body in `request_log_body`; null when it had none. */
  @Property({ type: 'string', length: 64, nullable: true })
  responseBodyKey: string | null = null;
}
