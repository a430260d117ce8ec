import { Field, InputType, ObjectType } from 'type-graphql';
import { z } from '../shared/zod.js';
import { URL_MAX_LENGTH } from './limits.js';

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

/**
 * A web URL (http or https) of 1 to 2083 characters, as the contract's URL fields are: the
 * provider's and venues' ticketing URLs, an offer's ticket office and video pages.
 */
export const webUrl = z
  .url({ protocol: /^https?$/, error: 'Input should be a valid URL' })
  // An empty string is already not a URL: one issue, not two.
  .max(URL_MAX_LENGTH, `URL should have at most ${URL_MAX_LENGTH} characters`);

/** The rules of a change of URLs: absent keeps, null clears, a value is a web URL. */
export const externalUrlsRule = z.object(
  Object.fromEntries(externalUrlFields.map((field) => [field, webUrl.nullish()])) as Record<
    ExternalUrlField,
    z.ZodOptional<z.ZodNullable<typeof webUrl>>
  >,
);

/** Copies the fields present in the change onto the target; absent fields stay as they are. */
export function applyExternalUrls(target: Record<ExternalUrlField, string | null>, input: ExternalUrlsInput): void {
  for (const field of externalUrlFields) {
    if (input[field] !== undefined) target[field] = input[field] ?? null;
  }
}
