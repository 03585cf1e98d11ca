// How the page sends evidence (camera frames, document photos) to
// `POST /api/client/nodes/{nodeId}/evidence`: multipart/form-data, a `body` part holding the request's
// JSON in which each image is the reference `part:NAME` to a binary part of the same request. In
// JSON, base64 made a liveness try a third larger (3.2 MB against 2.4 MB of JPEG), and a phone on a
// mobile network waits for every byte. A JSON body with base64 images is still accepted (curl, a page
// from before): the server turns references into the same base64 strings, so one schema checks both.

/** The part holding the request's JSON. */
export const EVIDENCE_BODY_PART = 'body';
/** A string of the JSON that stands for a binary part. Base64 never holds `:`, so it cannot clash. */
export const PART_REFERENCE = /^part:([A-Za-z0-9_-]{1,32})$/;
export const partReference = (name: string) => `part:${name}`;
/** More parts than any node sends (14 frames and an aligned face, two document sides). */
export const MAX_EVIDENCE_PARTS = 32;
