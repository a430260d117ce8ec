import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { ProviderMessage } from './ProviderMessage.js';

/** How much of an answer an attempt keeps: enough to read an error, never a whole page. */
export const ATTEMPT_ANSWER_KEPT_CHARS = 16 * 1024;

/**
 * One try at sending a message to a provider's system, as the provider saw it: the headers sent
 * (the signature included), what came back or why nothing did. The message itself keeps only
 * the last try; these let an integrator follow every one.
 */
@ObjectType({ description: "One try at sending a message to a provider's system, and what came back." })
@Entity({ tableName: 'provider_message_attempt' })
@Index({ properties: ['message', 'number'] })
export class MessageAttempt {
  @Field(() => Int)
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne(() => ProviderMessage, { deleteRule: 'cascade', index: false })
  message!: ProviderMessage;

  @Field(() => Int, { description: '1 for the first try at the message, then 2, 3...' })
  @Property({ type: 'integer' })
  number!: number;

  @Field(() => Date)
  @Property({ type: 'datetime' })
  attemptedAt!: Date;

  /** The headers sent, as a JSON object (Content-Type, PassCulture-Signature and the others). */
  @Property({ type: 'text' })
  requestHeaders!: string;

  @Field(() => Int, { nullable: true, description: "The answer's status; none when nothing came back." })
  @Property({ type: 'integer', nullable: true })
  statusCode: number | null = null;

  @Field(() => String, {
    nullable: true,
    description: `The answer's body, its first ${ATTEMPT_ANSWER_KEPT_CHARS} characters (see answerTruncated).`,
  })
  @Property({ type: 'text', nullable: true })
  answerBody: string | null = null;

  @Field(() => Boolean, { description: 'Whether the answer was longer than what answerBody keeps.' })
  @Property({ type: 'boolean', default: false })
  answerTruncated: boolean = false;

  @Field(() => String, {
    nullable: true,
    description:
      'Why the try did not deliver the message: the status answered, a timeout, an unreachable host, or a ' +
      'destination the platform refuses to call; none when it was delivered.',
  })
  @Property({ type: 'text', nullable: true })
  error: string | null = null;

  @Field(() => Int, { description: 'How long the call took, in milliseconds.' })
  @Property({ type: 'integer' })
  durationMs!: number;
}
