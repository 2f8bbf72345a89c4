import { VIDEO_ERROR_100, VIDEO_ERROR_2, VIDEO_ERROR_5, VIDEO_ERROR_EMBED_NOT_ALLOWED } from "../../core/messages";

/** Section 8, "Video error codes": the player's error code → the catalogue's message; other codes get "error N". */
export function videoErrorMessage(code: number): string {
  if (code === 2) return VIDEO_ERROR_2;
  if (code === 5) return VIDEO_ERROR_5;
  if (code === 100) return VIDEO_ERROR_100;
  if (code === 101 || code === 150) return VIDEO_ERROR_EMBED_NOT_ALLOWED;
  return "error " + code;
}

/** "Recorded as 'player:code:message', type Video Player." */
export const VIDEO_ERROR_TYPE = "Video Player";

export function videoErrorName(code: unknown, message: unknown): string {
  return "player:" + code + ":" + message;
}
