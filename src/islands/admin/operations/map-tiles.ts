import { atom } from 'nanostores';

/**
 * The map tile source for the admin's route maps. Settings are read on the server only
 * (src/server/env.ts), so src/pages/admin.astro passes them to AdminApp, which puts them here for
 * whichever tab draws a map.
 */
export interface MapTiles {
  tileUrl: string;
  attribution: string;
}

export const $mapTiles = atom<MapTiles | null>(null);
