import { own } from "../../analytics/lookup";
import { VIDEO_ID } from "./video-fields";
import { VIDEO_ERROR_TYPE, videoErrorName } from "./video-errors";
import type { AnalyticsVariables } from "../../../generator/config/schemas/variables.js";

/**
 * Section 5: "Video: error, started, milestones 30/60/90/120 s, resumed,
 * ended, replayed": the video events that are recorded. Their success events
 * and variables are the catalogue's (analyticsVariables.video in
 * sites/_org.yaml; an error also counts as an application error there).
 */
export type VideoNames = AnalyticsVariables["video"];

export interface VideoRecord {
  name: string;
  variables: Record<string, string>;
}

/**
 * The analytics record of a `video` push, or undefined when its event is not
 * recorded or it lacks what the record needs (a valid videoId; a milestone;
 * an error code). Variables: the video id, title and milestone; an error's
 * message and type (names.variables).
 */
export function videoRecord(push: Record<string, unknown>, names: VideoNames): VideoRecord | undefined {
  const event = String(push.videoEvent);
  const events = own(names.events as Readonly<Record<string, string[]>>, event);
  const id = push.videoId;
  if (!events || typeof id !== "string" || !VIDEO_ID.test(id)) return undefined;
  const v = names.variables;
  const variables: Record<string, string> = { events: events.join(","), [v.id]: id };
  if (typeof push.videoTitle === "string" && push.videoTitle) variables[v.title] = push.videoTitle;
  let name = "video:" + event + ":" + id;
  if (event === "milestone") {
    if (typeof push.videoMilestone !== "string" || !push.videoMilestone) return undefined;
    variables[v.milestone] = push.videoMilestone;
    name += ":" + push.videoMilestone;
  } else if (event === "error") {
    if (push.errorCode === undefined || push.errorCode === null || push.errorCode === "") return undefined;
    name = videoErrorName(push.errorCode, push.errorMessage === undefined ? "" : push.errorMessage);
    if (typeof push.errorMessage === "string") variables[v.errorMessage] = push.errorMessage;
    variables[v.errorType] = VIDEO_ERROR_TYPE;
  }
  return { name, variables };
}
