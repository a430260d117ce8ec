import { Field, InputType, ObjectType } from 'type-graphql';
import { type ValidationIssue, ValidationFailedError } from '../shared/errors.js';

export const URL_MAX_LENGTH = 2083;
export const externalUrlFields = ['bookingUrl', 'cancelUrl', 'notificationUrl'] as const;
export type ExternalUrlField = (typeof externalUrlFields)[number];

/** The ticketing and notification URLs, in a change: absent means unchanged, null clears. */
@InputType({ description: 'URLs to change; leave a field out to keep it, send null to clear it.' })
export class ExternalUrlsInput {
  @Field(() => String, { nullable: true })
  bookingUrl?: string | null;

  @Field(() => String, { nullable: true })
  cancelUrl?: string | null;

  @Field(() => String, { nullable: true })
  notificationUrl?: string | null;
}

@ObjectType({ description: "A venue's own ticketing and notification URLs for the calling provider." })
export class ExternalUrls {
  @Field(() => String, { nullable: true })
  bookingUrl!: string | null;

  @Field(() => String, { nullable: true })
  cancelUrl!: string | null;

  @Field(() => String, { nullable: true })
  notificationUrl!: string | null;
}

export function isWebUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/** The same rule for the REST contract and for /graphql callers: a web URI of 1 to 2083 characters. */
export function assertValidExternalUrls(input: ExternalUrlsInput): void {
  const issues: ValidationIssue[] = [];
  for (const field of externalUrlFields) {
    const value = input[field];
    if (value == null) continue;
    if (value.length < 1 || value.length > URL_MAX_LENGTH) {
      issues.push({
        loc: [field],
        msg: `URL must be 1 to ${URL_MAX_LENGTH} characters`,
        type: 'string_too_long',
        ctx: { limit_value: URL_MAX_LENGTH },
      });
    } else if (!isWebUrl(value)) {
      issues.push({ loc: [field], msg: 'Input should be a valid URL', type: 'url_parsing' });
    }
  }
  if (issues.length > 0) throw new ValidationFailedError(issues);
}

/** Copies the fields present in the change onto the target; absent fields stay as they are. */
export function applyExternalUrls(target: Record<ExternalUrlField, string | null>, input: ExternalUrlsInput): void {
  for (const field of externalUrlFields) {
    if (input[field] !== undefined) target[field] = input[field] ?? null;
  }
}
