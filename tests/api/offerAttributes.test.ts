import { describe, expect, it } from 'vitest';
import { routes } from '../../rest-facade/index.js';
import { openApiDocument } from '../support/contract.js';
import { useOfferWorld } from '../support/offerWorld.js';

describe('Offer Attributes and product categories', () => {
  const world = useOfferWorld();

  it('lists the 26 creatable event categories with their conditional fields', async () => {
    const response = await world.api.call('GetEventCategories');
    expect(response.status).toBe(200);
    expect(response.body).toHaveLength(26);
    const byId = Object.fromEntries(response.body.map((category: { id: string }) => [category.id, category]));
    expect(byId.CONCERT).toEqual({
      id: 'CONCERT',
      conditionalFields: { author: false, musicType: true, performer: false },
    });
    expect(byId.SEANCE_CINE.conditionalFields).toEqual({ author: false, stageDirector: false, visa: false });
    expect(byId.SPECTACLE_REPRESENTATION.conditionalFields.showType).toBe(true);
    expect(byId.ACTIVATION_EVENT).toBeUndefined();
  });

  it('lists the 27 creatable product categories with their location type', async () => {
    const response = await world.api.call('GetProductCategories');
    expect(response.status).toBe(200);
    expect(response.body).toHaveLength(27);
    const byId = Object.fromEntries(response.body.map((category: { id: string }) => [category.id, category]));
    expect(byId.LIVRE_AUDIO_PHYSIQUE.conditionalFields).toEqual({ author: false, ean: true });
    expect(byId.SUPPORT_PHYSIQUE_FILM.conditionalFields).toEqual({ ean: true });
    expect(byId.SUPPORT_PHYSIQUE_FILM.locationType).toBe('PHYSICAL');
    // Paper books are created by EAN only (the bulk product endpoints), not as a category.
    expect(byId.LIVRE_PAPIER).toBeUndefined();
    expect(byId.ABO_PLATEFORME_VIDEO.locationType).toBe('DIGITAL');
    expect(byId.SPECTACLE_ENREGISTRE).toEqual({
      id: 'SPECTACLE_ENREGISTRE',
      conditionalFields: { author: false, performer: false, showType: true, stageDirector: false },
      locationType: 'DIGITAL',
    });
  });

  it("lists music types, event music types and show types with pass Culture's labels", async () => {
    const all = await world.api.call('GetAllTiteliveMusicTypes');
    expect(all.status).toBe(200);
    expect(all.body).toHaveLength(19);
    expect(all.body).toContainEqual({ id: 'MUSIQUE_CLASSIQUE', label: 'Musique Classique' });
    expect(all.body).toContainEqual({ id: 'VIDEOS_MUSICALES', label: 'Vidéos musicales' });
    const event = await world.api.call('GetEventTiteliveMusicTypes');
    expect(event.body).toHaveLength(15);
    expect(event.body).toContainEqual({ id: 'FUNK-SOUL-RNB-DISCO', label: 'Funk / Soul / RnB / Disco' });
    const shows = await world.api.call('GetShowTypes');
    expect(shows.body).toHaveLength(85);
    expect(shows.body).toContainEqual({ id: 'ART_DE_LA_RUE-CARNAVAL', label: 'Carnaval' });
    expect(shows.body).toContainEqual({ id: 'SPECTACLE_MUSICAL-COMEDIE_MUSICALE', label: 'Comédie Musicale' });

    // Each list holds distinct types of exactly an id and a label; the event music types are
    // the music types less those that cannot be an event (soundtracks, music videos, compilations, children's).
    const ids = (list: { id: string }[]) => list.map((entry) => entry.id);
    for (const list of [all.body, event.body, shows.body]) {
      expect(new Set(ids(list)).size).toBe(list.length);
      for (const entry of list) expect(Object.keys(entry).sort()).toEqual(['id', 'label']);
    }
    expect(ids(all.body).filter((id: string) => !ids(event.body).includes(id))).toEqual([
      'BANDES_ORIGINALES',
      'VIDEOS_MUSICALES',
      'COMPILATIONS',
      'ENFANTS',
    ]);
  });

  it('still serves the former music types, marked deprecated in the document', async () => {
    const response = await world.api.call('GetMusicTypes');
    expect(response.status).toBe(200);
    expect(response.body).toHaveLength(200);
    expect(response.body[0]).toEqual({ id: expect.any(String), label: expect.any(String) });
    expect(new Set(response.body.map((entry: { id: string }) => entry.id)).size).toBe(200);
    expect(response.body).toContainEqual({ id: 'JAZZ-MANOUCHE', label: 'Manouche' });
    expect(response.body).toContainEqual({ id: 'JAZZ-OTHER', label: 'Autre' });
    const operation = (
      openApiDocument.paths?.['/public/offers/v1/music_types'] as Record<string, { deprecated?: boolean }>
    ).get;
    expect(operation.deprecated).toBe(true);
    expect(routes.filter((route) => route.deprecated).map((route) => route.operationId)).toEqual(['GetMusicTypes']);
  });

  it('needs a key', async () => {
    const response = await world.api.call('GetShowTypes', { key: null });
    expect(response.status).toBe(401);
    const categories = await world.api.call('GetEventCategories', { key: null });
    expect([categories.status, categories.body]).toEqual([401, { auth: 'API key required' }]);
  });
});
