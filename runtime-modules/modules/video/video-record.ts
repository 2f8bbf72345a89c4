import { own } from "../../analytics/lookup";
import { VIDEO_ID } from "./video-fields";
import { VIDEO_ERROR_TYPE, videoErrorName } from "./video-errors";

/**
 * Section 5: "Video: error, started, milestones 30/60/90/120 s, resumed,
 * ended, replayed": the video events that are recorded, and their success
 * events. The numbers are placeholders to confirm (section 9 gives none);
 * an error also counts as an application error (event50, as the org's
 * application-error rule records it).
 */
const VIDEO_EVENTS: Readonly<Record<string, string>> = {
  started: "event71",
  milestone: "event72",
  resumed: "event73",
  ended: "event74",
  replayed: "event75",
  error: "event76,event50",
};

export interface VideoRecord {
  name: string;
  variables: Record<string, string>;
}

/**
 * The analytics record of a `video` push, or undefined when its event is not
 * recorded or it lacks what the record needs (a valid videoId; a milestone;
 * an error code). Variables (placeholders to confirm): eVar106 video id,
 * eVar107 title, eVar108 milestone; an error's message and type go where the
 * application-error rule puts them (eVar97, eVar98).
 */
export function videoRecord(push: Record<string, unknown>): VideoRecord | undefined {
  const event = String(push.videoEvent);
  const events = own(VIDEO_EVENTS, event);
  const id = push.videoId;
  if (!events || typeof id !== "string" || !VIDEO_ID.test(id)) return undefined;
  const variables: Record<string, string> = { events, eVar106: id };
  if (typeof push.videoTitle === "string" && push.videoTitle) variables.eVar107 = push.videoTitle;
  let name = "video:" + event + ":" + id;
  if (event === "milestone") {
    if (typeof push.videoMilestone !== "string" || !push.videoMilestone) return undefined;
    variables.eVar108 = push.videoMilestone;
    name += ":" + push.videoMilestone;
  } else if (event === "error") {
    if (push.errorCode === undefined || push.errorCode === null || push.errorCode === "") return undefined;
    name = videoErrorName(push.errorCode, push.errorMessage === undefined ? "" : push.errorMessage);
    if (typeof push.errorMessage === "string") variables.eVar97 = push.errorMessage;
    variables.eVar98 = VIDEO_ERROR_TYPE;
  }
  return { name, variables };
}
