/** Zones are ints in the interface; 32-bit is what clients can hold. */
export const ZONE_MAX = 2_147_483_647;
