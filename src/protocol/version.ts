/** The ACP major version this client speaks; an agent answering another version is not usable. */
export const PROTOCOL_VERSION = 1;
