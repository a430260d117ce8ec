import { Entity, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { Provider } from './Provider.js';
import { URL_MAX_LENGTH } from './limits.js';
import { Venue } from './Venue.js';

/**
 * The link that lets a provider act on a venue. It carries the venue-specific
 * ticketing URLs, which override the provider's own for that venue.
 */
@Entity({ tableName: 'venue_provider' })
@Unique({ properties: ['venue', 'provider'] })
export class VenueProvider {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne(() => Venue, { deleteRule: 'cascade', index: false })
  venue!: Venue;

  @ManyToOne(() => Provider, { deleteRule: 'cascade', index: true })
  provider!: Provider;

  @Property({ type: 'boolean', default: true })
  isActive: boolean = true;

  @Property({ type: 'string', length: URL_MAX_LENGTH, nullable: true })
  bookingUrl: string | null = null;

  @Property({ type: 'string', length: URL_MAX_LENGTH, nullable: true })
  cancelUrl: string | null = null;

  @Property({ type: 'string', length: URL_MAX_LENGTH, nullable: true })
  notificationUrl: string | null = null;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();
}
