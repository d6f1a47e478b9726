package io.pancakej.smoothing;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/** How error messages name a key: quoted text when it is printable UTF-8, else hex; never a value. */
final class KeyNames {
  private static final int MAX_CHARS = 80;

  private KeyNames() {}

  static String describe(byte[] key) {
    if (key == null) {
      return "(unbound slot)";
    }
    try {
      String text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(key)).toString();
      if (text.codePoints().allMatch(c -> c >= 0x20 && c != 0x7f && !Character.isISOControl(c))) {
        return text.length() <= MAX_CHARS ? "'" + text + "'" : "'" + text.substring(0, MAX_CHARS) + "...'";
      }
    } catch (CharacterCodingException e) {
      // not text: hex below
    }
    String hex = HexFormat.of().formatHex(key);
    return hex.length() <= MAX_CHARS ? "0x" + hex : "0x" + hex.substring(0, MAX_CHARS) + "...";
  }
}
