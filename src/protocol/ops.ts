// What a front end gives a turn.

export interface UserInput {
  text: string;
  /** Local image paths attached to this input. */
  images?: string[];
}
