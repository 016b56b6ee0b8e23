/**
 * The checksum the http consumer and its mock API each keep of the bodies: the sum of each body's
 * CRC-32, mod 2³². A sum, so the order calls arrive in (over several connections) does not change
 * it; a CRC per body, so changed bytes, or one body sent twice and another of the same size lost,
 * do. zlib.crc32 is native (Node 20.15+; undici 7, which the consumer calls with, needs 20.18).
 */

/** The checksum with one more body's CRC-32 (zlib.crc32 of the body, whole or fed piece by piece) added. */
export function addToChecksum(sum: number, bodyCrc: number): number {
  return (sum + bodyCrc) >>> 0;
}
