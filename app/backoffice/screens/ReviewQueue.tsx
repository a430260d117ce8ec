import { gql, useMutation, useQuery } from '@apollo/client';
import { useState } from 'react';
import { ActionResult, formatDate, QueryState, LoadMore } from '../client/states.js';

const PAGE = 20;

const INDIVIDUAL = gql`
  query ReviewQueue($providerId: Int, $category: String, $page: PageInput) {
    offersAwaitingReview(providerId: $providerId, category: $category, page: $page) {
      id
      name
      category
      description
      isEvent
      categoryRelatedFields
      stockCount
      image {
        url
      }
      provider {
        id
        name
      }
      venue {
        id
        legalName
        publicName
      }
    }
  }
`;

const COLLECTIVE = gql`
  query CollectiveReviewQueue($providerId: Int, $page: PageInput) {
    collectiveOffersAwaitingReview(providerId: $providerId, page: $page) {
      id
      name
      description
      formats
      startDatetime
      endDatetime
      numberOfTickets
      totalPrice
      imageUrl
      provider {
        id
        name
      }
      venue {
        id
        legalName
        publicName
      }
    }
  }
`;

const REVIEW = gql`
  mutation ReviewOffers($offers: [OfferToReview!]!, $decision: String!, $reason: String) {
    reviewOffers(offers: $offers, decision: $decision, reason: $reason) {
      offerId
      collective
      decision
      reason
    }
  }
`;

interface QueuedOffer {
  id: number;
  name: string;
  description: string | null;
  provider: { id: number; name: string };
  venue: { id: number; legalName: string; publicName: string | null };
  category?: string;
  isEvent?: boolean;
  categoryRelatedFields?: Record<string, unknown>;
  stockCount?: number;
  image?: { url: string } | null;
  imageUrl?: string | null;
  formats?: string[];
  startDatetime?: string;
  endDatetime?: string;
  numberOfTickets?: number;
  totalPrice?: number;
}

type Kind = 'individual' | 'collective';

/** Offers waiting for a compliance decision: approve, or reject with a reason the provider reads. */
export function ReviewQueue() {
  const [kind, setKind] = useState<Kind>('individual');
  const [providerId, setProviderId] = useState('');
  const [category, setCategory] = useState('');
  const filters = {
    providerId: providerId.trim() ? Number(providerId) : null,
    ...(kind === 'individual' ? { category: category.trim() || null } : {}),
  };
  return (
    <>
      <h1>Review queue</h1>
      <div className="bo-tabs" role="group" aria-label="Kind of offers">
        {(['individual', 'collective'] as const).map((value) => (
          <button
            key={value}
            type="button"
            className="bo-button bo-button--quiet"
            aria-pressed={kind === value}
            onClick={() => setKind(value)}
          >
            {value === 'individual' ? 'Individual offers' : 'Collective offers'}
          </button>
        ))}
      </div>
      <form className="bo-filters" onSubmit={(event) => event.preventDefault()}>
        <label>
          Provider id
          <input inputMode="numeric" value={providerId} onChange={(event) => setProviderId(event.target.value)} />
        </label>
        {kind === 'individual' ? (
          <label>
            Category
            <input value={category} onChange={(event) => setCategory(event.target.value)} />
          </label>
        ) : null}
      </form>
      <Queue key={kind} kind={kind} variables={filters} />
    </>
  );
}

function Queue({ kind, variables }: { kind: Kind; variables: Record<string, unknown> }) {
  const query = kind === 'individual' ? INDIVIDUAL : COLLECTIVE;
  const field = kind === 'individual' ? 'offersAwaitingReview' : 'collectiveOffersAwaitingReview';
  const { data, loading, error, refetch, fetchMore } = useQuery<Record<string, QueuedOffer[]>>(query, {
    variables: { ...variables, page: { firstIndex: 1, limit: PAGE } },
    notifyOnNetworkStatusChange: true,
  });
  const offers = data?.[field] ?? [];
  const [selected, setSelected] = useState<number[]>([]);
  const [reason, setReason] = useState('');
  const [outcome, setOutcome] = useState<{ error?: string; done?: string }>({});
  const [review, { loading: reviewing }] = useMutation(REVIEW);

  async function decide(ids: number[], decision: 'APPROVED' | 'REJECTED') {
    if (decision === 'REJECTED' && !reason.trim()) {
      setOutcome({ error: 'Write the reason of the rejection: the provider reads it.' });
      return;
    }
    const targets = ids.map((offerId) => ({ offerId, collective: kind === 'collective' }));
    try {
      await review({
        variables: { offers: targets, decision, reason: decision === 'REJECTED' ? reason.trim() : null },
        // A decision is safe to predict: the offers leave the queue at once, and come back if it fails.
        optimisticResponse: {
          reviewOffers: targets.map((target) => ({
            __typename: 'OfferReview',
            ...target,
            decision,
            reason: decision === 'REJECTED' ? reason.trim() : null,
          })),
        },
        update(cache) {
          cache.modify({
            fields: {
              [field](existing: readonly { __ref: string }[] = [], { readField }) {
                return existing.filter((ref) => !ids.includes(readField<number>('id', ref) ?? -1));
              },
            },
          });
        },
      });
      setSelected((current) => current.filter((id) => !ids.includes(id)));
      setReason('');
      setOutcome({ done: `${ids.length} offer${ids.length > 1 ? 's' : ''} ${decision.toLowerCase()}.` });
    } catch (failure) {
      setOutcome({ error: (failure as Error).message });
      void refetch();
    }
  }

  const toggle = (id: number) =>
    setSelected((current) => (current.includes(id) ? current.filter((other) => other !== id) : [...current, id]));

  return (
    <section
      aria-label={kind === 'individual' ? 'Individual offers awaiting review' : 'Collective offers awaiting review'}
    >
      <div className="bo-toolbar">
        <label className="bo-reason">
          Reason of a rejection (the provider reads it)
          <textarea value={reason} maxLength={1000} rows={2} onChange={(event) => setReason(event.target.value)} />
        </label>
        <button
          type="button"
          className="bo-button"
          disabled={selected.length === 0 || reviewing}
          onClick={() => void decide(selected, 'APPROVED')}
        >
          Approve selected ({selected.length})
        </button>
        <button
          type="button"
          className="bo-button bo-button--danger"
          disabled={selected.length === 0 || reviewing}
          onClick={() => void decide(selected, 'REJECTED')}
        >
          Reject selected ({selected.length})
        </button>
      </div>
      <ActionResult error={outcome.error} done={outcome.done} />
      <QueryState
        loading={loading}
        error={error}
        empty={offers.length === 0}
        emptyText="No offer awaits review."
        retry={() => void refetch()}
      >
        <ul className="bo-cards">
          {offers.map((offer) => (
            <li key={offer.id} className="bo-card">
              <OfferCard offer={offer} selected={selected.includes(offer.id)} onToggle={() => toggle(offer.id)} />
              <div className="bo-actions">
                <button
                  type="button"
                  className="bo-button"
                  disabled={reviewing}
                  onClick={() => void decide([offer.id], 'APPROVED')}
                >
                  Approve <span className="bo-visually-hidden">{offer.name}</span>
                </button>
                <button
                  type="button"
                  className="bo-button bo-button--danger"
                  disabled={reviewing}
                  onClick={() => void decide([offer.id], 'REJECTED')}
                >
                  Reject <span className="bo-visually-hidden">{offer.name}</span>
                </button>
              </div>
            </li>
          ))}
        </ul>
        <LoadMore
          rows={offers}
          pageSize={PAGE}
          disabled={loading}
          more={(page) => void fetchMore({ variables: { ...variables, page } })}
        />
      </QueryState>
    </section>
  );
}

function OfferCard({ offer, selected, onToggle }: { offer: QueuedOffer; selected: boolean; onToggle: () => void }) {
  const image = offer.image?.url ?? offer.imageUrl ?? null;
  const fields = Object.entries(offer.categoryRelatedFields ?? {}).filter(([name]) => name !== 'category');
  return (
    <article aria-labelledby={`offer-${offer.id}`}>
      <label className="bo-select">
        <input type="checkbox" checked={selected} onChange={onToggle} />
        <span className="bo-visually-hidden">Select {offer.name}</span>
      </label>
      <h2 id={`offer-${offer.id}`}>
        {offer.name} <span className="bo-muted">#{offer.id}</span>
      </h2>
      {image ? (
        <img src={image} alt={`Image of ${offer.name}`} className="bo-thumb" />
      ) : (
        <p className="bo-muted">No image</p>
      )}
      <dl className="bo-fields">
        <dt>Provider</dt>
        <dd>
          <a href={`/backoffice/providers/${offer.provider.id}`}>{offer.provider.name}</a>
        </dd>
        <dt>Venue</dt>
        <dd>{offer.venue.publicName ?? offer.venue.legalName}</dd>
        {offer.category ? (
          <>
            <dt>Category</dt>
            <dd>{offer.category}</dd>
          </>
        ) : null}
        {offer.stockCount !== undefined ? (
          <>
            <dt>{offer.isEvent ? 'Dates' : 'Stock'}</dt>
            <dd>{offer.stockCount}</dd>
          </>
        ) : null}
        {offer.startDatetime ? (
          <>
            <dt>Dates</dt>
            <dd>
              {formatDate(offer.startDatetime)} to {formatDate(offer.endDatetime)}
            </dd>
            <dt>Tickets</dt>
            <dd>
              {offer.numberOfTickets}, {offer.totalPrice} €
            </dd>
            <dt>Formats</dt>
            <dd>{offer.formats?.join(', ')}</dd>
          </>
        ) : null}
        {fields.map(([name, value]) => (
          <div key={name} className="bo-field">
            <dt>{name}</dt>
            <dd>{String(value)}</dd>
          </div>
        ))}
      </dl>
      {offer.description ? <p className="bo-description">{offer.description}</p> : null}
    </article>
  );
}
