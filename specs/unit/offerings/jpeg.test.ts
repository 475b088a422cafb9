import { describe, expect, it } from "vitest"
import { jpegSize } from "../../../engine/services/offerings/jpeg.ts"
import { tinyJpeg } from "../../support/jpeg.ts"

describe("jpegSize", () => {
  it("reads the size from the frame header, past other segments", () => {
    expect(jpegSize(tinyJpeg(640, 480))).toEqual({ width: 640, height: 480 })
    expect(jpegSize(tinyJpeg(1, 65535))).toEqual({ width: 1, height: 65535 })
  })

  it("refuses what is not a JPEG or is cut short", () => {
    expect(jpegSize(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBeUndefined()
    expect(jpegSize(new TextEncoder().encode("GIF89a....."))).toBeUndefined()
    expect(jpegSize(tinyJpeg(640, 480).slice(0, 24))).toBeUndefined()
    expect(jpegSize(new Uint8Array())).toBeUndefined()
    expect(jpegSize(tinyJpeg(0, 480))).toBeUndefined()
  })
})
