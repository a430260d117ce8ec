import type { EntityManager } from '@mikro-orm/core';
import {
  createApiKey,
  createOfferer,
  createProvider,
  createVenue,
  linkVenue,
  listApiKeys,
  setIndividualOfferRights,
  setProviderActive,
  unlinkVenue,
} from '../../graphql/providers/administration.js';
import { revokeApiKey } from '../../graphql/providers/apiKeys.js';
import { venueTypes } from '../../graphql/providers/venueTypes.js';
import type { Clock } from '../../platform/time/clock.js';
import { z } from 'zod';

export interface CommandContext {
  em: EntityManager;
  clock: Clock;
  keyEnv: string;
}

type Options = Record<string, string | boolean | undefined>;

export interface Command {
  usage: string;
  run(options: Options, positionals: string[], context: CommandContext): Promise<Record<string, unknown>>;
}

const id = z.coerce.number().int().positive();
const url = z.url().max(2083).optional();

function parse<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `--${issue.path.join('.')}: ${issue.message}`);
  throw new UsageError(problems.join('\n'));
}

export class UsageError extends Error {}

/** Each command validates its options, calls the domain, and returns what it made. */
export const commands: Record<string, Command> = {
  'create-provider': {
    usage:
      'create-provider --name NAME [--booking-url URL] [--cancel-url URL] [--notification-url URL] [--logo-url URL]',
    async run(options, _positionals, { em, clock }) {
      const input = parse(
        z.object({
          name: z.string().min(1).max(140),
          'booking-url': url,
          'cancel-url': url,
          'notification-url': url,
          'logo-url': url,
        }),
        options,
      );
      const provider = await createProvider(em, clock, {
        name: input.name,
        bookingUrl: input['booking-url'],
        cancelUrl: input['cancel-url'],
        notificationUrl: input['notification-url'],
        logoUrl: input['logo-url'],
      });
      return { providerId: provider.id, name: provider.name, messagingSecret: provider.messagingSecret };
    },
  },
  'deactivate-provider': {
    usage: 'deactivate-provider --provider ID',
    async run(options, _positionals, { em }) {
      const provider = await setProviderActive(em, parse(z.object({ provider: id }), options).provider, false);
      return { providerId: provider.id, isActive: provider.isActive };
    },
  },
  'activate-provider': {
    usage: 'activate-provider --provider ID',
    async run(options, _positionals, { em }) {
      const provider = await setProviderActive(em, parse(z.object({ provider: id }), options).provider, true);
      return { providerId: provider.id, isActive: provider.isActive };
    },
  },
  'set-individual-offer-rights': {
    usage: 'set-individual-offer-rights --provider ID --allowed true|false',
    async run(options, _positionals, { em }) {
      const input = parse(z.object({ provider: id, allowed: z.enum(['true', 'false']) }), options);
      const provider = await setIndividualOfferRights(em, input.provider, input.allowed === 'true');
      return { providerId: provider.id, canManageIndividualOffers: provider.canManageIndividualOffers };
    },
  },
  'create-offerer': {
    usage: 'create-offerer --name NAME --siren SIREN [--allowed-on-adage]',
    async run(options, _positionals, { em, clock }) {
      const input = parse(
        z.object({
          name: z.string().min(1).max(140),
          siren: z.string(),
          'allowed-on-adage': z.boolean().default(false),
        }),
        options,
      );
      const offerer = await createOfferer(em, clock, {
        name: input.name,
        siren: input.siren,
        allowedOnAdage: input['allowed-on-adage'],
      });
      return { offererId: offerer.id, name: offerer.name, siren: offerer.siren };
    },
  },
  'create-venue': {
    usage:
      'create-venue --offerer ID --name NAME --provider ID [--activity-domain CODE] ' +
      '(--digital | --siret SIRET --street STREET --city CITY --postal-code CODE --latitude LAT --longitude LON)',
    async run(options, _positionals, { em, clock }) {
      const input = parse(
        z.object({
          offerer: id,
          name: z.string().min(1).max(140),
          provider: id,
          'activity-domain': z.enum(venueTypes).optional(),
          digital: z.boolean().default(false),
          siret: z.string().optional(),
          street: z.string().min(1).max(200).optional(),
          city: z.string().min(1).max(200).optional(),
          'postal-code': z
            .string()
            .regex(/^(0[1-9]|[1-8]\d|9[0-5]|2[AB]|98)\d{3}$/)
            .optional(),
          latitude: z.coerce.number().min(-90).max(90).optional(),
          longitude: z.coerce.number().min(-180).max(180).optional(),
        }),
        options,
      );
      let physical;
      if (!input.digital) {
        physical = parse(
          z.object({
            siret: z.string(),
            street: z.string(),
            city: z.string(),
            postalCode: z.string(),
            latitude: z.number(),
            longitude: z.number(),
          }),
          { ...input, postalCode: input['postal-code'] },
        );
      }
      const venue = await createVenue(em, clock, {
        offererId: input.offerer,
        legalName: input.name,
        activityDomain: input['activity-domain'] ?? (input.digital ? 'DIGITAL' : 'OTHER'),
        physical,
        providerIds: [input.provider],
      });
      return { venueId: venue.id, siret: venue.siret, isVirtual: venue.isVirtual };
    },
  },
  'link-venue': {
    usage: 'link-venue --venue ID --provider ID',
    async run(options, _positionals, { em, clock }) {
      const input = parse(z.object({ venue: id, provider: id }), options);
      const link = await linkVenue(em, clock, { venueId: input.venue, providerId: input.provider });
      return { venueId: input.venue, providerId: input.provider, isActive: link.isActive };
    },
  },
  'unlink-venue': {
    usage: 'unlink-venue --venue ID --provider ID',
    async run(options, _positionals, { em }) {
      const input = parse(z.object({ venue: id, provider: id }), options);
      const link = await unlinkVenue(em, { venueId: input.venue, providerId: input.provider });
      return { venueId: input.venue, providerId: input.provider, isActive: link.isActive };
    },
  },
  'create-key': {
    usage: 'create-key (--provider ID [--offerer ID] [--label TEXT] | --internal --label TEXT)',
    async run(options, _positionals, { em, clock, keyEnv }) {
      const input = parse(
        z.object({
          provider: id.optional(),
          offerer: id.optional(),
          internal: z.boolean().default(false),
          label: z.string().max(140).optional(),
        }),
        options,
      );
      if (input.internal === (input.provider !== undefined)) {
        throw new UsageError('Give either --provider ID (a provider key) or --internal (an internal key)');
      }
      // A machine's key acts as admin on /graphql (decision 031): its label is what names who holds it and why.
      if (input.internal && !input.label?.trim()) {
        throw new UsageError('An internal key names its owner and purpose: --label "owner: purpose"');
      }
      const { key, apiKey } = await createApiKey(em, clock, {
        env: keyEnv,
        providerId: input.provider,
        offererId: input.offerer,
        internal: input.internal,
        label: input.label,
      });
      return { apiKey: key, prefix: apiKey.prefix, internal: apiKey.isInternal };
    },
  },
  'revoke-key': {
    usage: 'revoke-key PREFIX',
    async run(_options, positionals, { em, clock }) {
      const prefix = parse(z.string().min(3), positionals[0]);
      const apiKey = await revokeApiKey(em, clock, prefix);
      return { prefix: apiKey.prefix, revokedAt: apiKey.revokedAt?.toISOString() };
    },
  },
  'list-keys': {
    usage: 'list-keys [--provider ID]',
    async run(options, _positionals, { em }) {
      const input = parse(z.object({ provider: id.optional() }), options);
      const keys = await listApiKeys(em, input.provider);
      return {
        keys: keys.map((key) => ({
          prefix: key.prefix,
          providerId: key.provider?.id ?? null,
          internal: key.isInternal,
          label: key.label,
          createdAt: key.createdAt.toISOString(),
          revokedAt: key.revokedAt?.toISOString() ?? null,
        })),
      };
    },
  },
};
