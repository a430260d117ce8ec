import { commonOfferAnswer, type GraphOffer } from '../schemas/offerResponse.js';
import type { z } from '../zod.js';
import type { EventOfferResponse } from './schemas.js';

/** An event offer as the offers subgraph answers it. */
export interface GraphEvent extends GraphOffer {
  videoUrl: string | null;
  hasTicket: boolean;
  eventDuration: number | null;
  priceCategories: { id: number; label: string; price: number; idAtProvider: string | null }[];
}

export function toEventResponse(event: GraphEvent): z.input<typeof EventOfferResponse> {
  return {
    ...(commonOfferAnswer(event) as Omit<z.input<typeof EventOfferResponse>, 'eventDuration'>),
    eventDuration: event.eventDuration,
    hasTicket: event.hasTicket,
    priceCategories: event.priceCategories,
    publicationDate: event.publicationDatetime,
    videoUrl: event.videoUrl,
  };
}
