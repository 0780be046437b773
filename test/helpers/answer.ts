/**
 * A handler's answer as a value: an export's answer comes back as the JSON bytes its worker
 * encoded (engine/api/encoded-answer.ts), which a test calling the handler directly decodes.
 */
import { EncodedAnswer } from '../../src/main/engine/api/encoded-answer';

/** The value of `answer`, decoded when it came back encoded. */
export async function answerOf<T>(
  answer: T | EncodedAnswer<T> | Promise<T | EncodedAnswer<T>>,
): Promise<T> {
  const settled = await answer;
  return settled instanceof EncodedAnswer ? settled.toJSON() : settled;
}
