/** Limits of the contract for addresses: each number exists once, read by the rules and the REST facade. */

export const STREET_MAX_LENGTH = 200;
export const CITY_MAX_LENGTH = 200;
/** A French postal code: 5 digits, department 01 to 98. */
export const POSTAL_CODE_PATTERN = /^(?:0[1-9]|[1-8]\d|9[0-8])\d{3}$/;

/** A provider's name, and so the longest name search that can match one. */
export const PROVIDER_NAME_MAX_LENGTH = 140;
/** What staff write on a key to tell it from the provider's others. */
export const API_KEY_LABEL_MAX_LENGTH = 140;
/** A key's public prefix, `{env}_{12 hex}` (the column's length). */
export const API_KEY_PREFIX_MAX_LENGTH = 40;

/** A ticketing or notification URL, and an offer's external URLs. */
export const URL_MAX_LENGTH = 2083;
/** The job type a staff member filters the queue by. */
export const JOB_TYPE_FILTER_MAX_LENGTH = 100;

/** Decimals of a recorded address's latitude and longitude, as pass Culture stores them (about a metre). */
export const ADDRESS_COORDINATE_DECIMALS = 5;
