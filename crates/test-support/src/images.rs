//! Image files built by hand, for what an encoder would refuse to write.

/// Appends one PNG chunk: length, type, data and the CRC-32 of type and data.
fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    let length = u32::try_from(data.len()).expect("a PNG chunk holds under 4 GiB");
    out.extend_from_slice(&length.to_be_bytes());
    let mut crc = crc32fast::Hasher::new();
    crc.update(kind);
    crc.update(data);
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    out.extend_from_slice(&crc.finalize().to_be_bytes());
}

/// A PNG whose header announces `width` × `height` (8-bit RGB) but whose data is a few
/// bytes: a decompression bomb as far as a decoder that trusts the header is concerned.
pub fn bomb_png(width: u32, height: u32) -> Vec<u8> {
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut header = Vec::new();
    header.extend_from_slice(&width.to_be_bytes());
    header.extend_from_slice(&height.to_be_bytes());
    header.extend_from_slice(&[8, 2, 0, 0, 0]);
    chunk(&mut out, b"IHDR", &header);
    chunk(
        &mut out,
        b"IDAT",
        &[0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01],
    );
    chunk(&mut out, b"IEND", &[]);
    out
}

/// A baseline CMYK JPEG of `pixel`'s ink amounts (four components, Adobe APP14 marker, as print workflows and some
/// phone apps save them), which the `image` crate's encoder cannot write. Each 8×8 block has
/// the mean of `pixel` over it and no detail (only DC coefficients are coded): enough for a
/// decoder to take every path of a real CMYK file.
pub fn cmyk_jpeg(width: u16, height: u16, pixel: impl Fn(u32, u32) -> [u8; 4]) -> Vec<u8> {
    let mut out = vec![0xFF, 0xD8];
    // APP14 "Adobe", version 100, no flags, transform 0 (CMYK, not YCCK).
    segment(
        &mut out,
        0xEE,
        &[b'A', b'd', b'o', b'b', b'e', 0, 100, 0, 0, 0, 0, 0],
    );
    // One quantisation table of ones: the DC coefficient is coded as computed.
    let mut dqt = vec![0u8];
    dqt.extend([1u8; 64]);
    segment(&mut out, 0xDB, &dqt);
    let mut sof = vec![8];
    sof.extend(height.to_be_bytes());
    sof.extend(width.to_be_bytes());
    sof.push(4);
    for id in 1..=4 {
        sof.extend([id, 0x11, 0]);
    }
    segment(&mut out, 0xC0, &sof);
    // The standard luminance DC table (categories 0–11) and an AC table holding only EOB.
    let mut dht = vec![0x00];
    dht.extend(DC_BITS);
    dht.extend(0..=11u8);
    segment(&mut out, 0xC4, &dht);
    let mut dht = vec![0x10, 1];
    dht.extend([0u8; 15]);
    dht.push(0x00);
    segment(&mut out, 0xC4, &dht);
    let mut sos = vec![4];
    for id in 1..=4 {
        sos.extend([id, 0x00]);
    }
    sos.extend([0, 63, 0]);
    segment(&mut out, 0xDA, &sos);
    let dc_codes = canonical_codes(&DC_BITS);
    let mut bits = BitWriter::default();
    let mut predictor = [0i32; 4];
    let (w, h) = (u32::from(width), u32::from(height));
    for by in 0..h.div_ceil(8) {
        for bx in 0..w.div_ceil(8) {
            let mut sums = [0i32; 4];
            for y in by * 8..by * 8 + 8 {
                for x in bx * 8..bx * 8 + 8 {
                    // Past the edge, the edge pixel repeats (what decoders crop away).
                    let p = pixel(x.min(w - 1), y.min(h - 1));
                    for (sum, v) in sums.iter_mut().zip(p) {
                        // Adobe stores ink inverted (255: none), and decoders expect that.
                        *sum += 127 - i32::from(v);
                    }
                }
            }
            for (component, sum) in sums.into_iter().enumerate() {
                // The 2-D DCT's DC term of a block is an eighth of its sum.
                let dc = sum / 8;
                let diff = dc - predictor[component];
                predictor[component] = dc;
                let category = 32 - diff.unsigned_abs().leading_zeros();
                let (code, length) = dc_codes[category as usize];
                bits.put(u32::from(code), length);
                if category > 0 {
                    let magnitude = if diff < 0 {
                        diff + (1 << category) - 1
                    } else {
                        diff
                    };
                    bits.put(magnitude as u32, category);
                }
                // End of block: the AC table's only code, a single 0 bit.
                bits.put(0, 1);
            }
        }
    }
    out.extend(bits.finish());
    out.extend([0xFF, 0xD9]);
    out
}

/// Code counts per length (1–16 bits) of the standard luminance DC table (ITU T.81 K.3).
const DC_BITS: [u8; 16] = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0];

/// The canonical Huffman codes `(code, length)` of a table's symbols, in symbol order.
fn canonical_codes(bits: &[u8; 16]) -> Vec<(u16, u32)> {
    let mut codes = Vec::new();
    let mut code = 0u16;
    for (i, &count) in bits.iter().enumerate() {
        for _ in 0..count {
            codes.push((code, i as u32 + 1));
            code += 1;
        }
        code <<= 1;
    }
    codes
}

/// Appends one JPEG marker segment: `FF marker`, its length, its data.
fn segment(out: &mut Vec<u8>, marker: u8, data: &[u8]) {
    let length = u16::try_from(data.len() + 2).expect("a JPEG segment holds under 64 KiB");
    out.extend([0xFF, marker]);
    out.extend(length.to_be_bytes());
    out.extend_from_slice(data);
}

/// Entropy-coded bits, most significant first, with a zero byte stuffed after each `FF`.
#[derive(Default)]
struct BitWriter {
    bytes: Vec<u8>,
    current: u32,
    filled: u32,
}

impl BitWriter {
    fn put(&mut self, value: u32, length: u32) {
        for i in (0..length).rev() {
            self.current = (self.current << 1) | ((value >> i) & 1);
            self.filled += 1;
            if self.filled == 8 {
                self.push_byte();
            }
        }
    }

    fn push_byte(&mut self) {
        let byte = self.current as u8;
        self.bytes.push(byte);
        if byte == 0xFF {
            self.bytes.push(0);
        }
        (self.current, self.filled) = (0, 0);
    }

    /// The bytes, the last one padded with one bits.
    fn finish(mut self) -> Vec<u8> {
        if self.filled > 0 {
            let pad = 8 - self.filled;
            self.put((1 << pad) - 1, pad);
        }
        self.bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_announces_the_size_and_the_crcs_are_valid() {
        let png = bomb_png(40_000, 30_000);
        // The decoder checks each chunk's CRC while reading the header.
        let decoder = image::ImageReader::new(std::io::Cursor::new(&png))
            .with_guessed_format()
            .unwrap();
        assert_eq!(decoder.format(), Some(image::ImageFormat::Png));
        assert_eq!(decoder.into_dimensions().unwrap(), (40_000, 30_000));
        // The CRC of an empty IEND chunk is a constant of the format.
        assert_eq!(&png[png.len() - 4..], &[0xAE, 0x42, 0x60, 0x82]);
    }

    #[test]
    fn a_cmyk_jpeg_decodes_with_its_size_and_its_light_and_dark_parts() {
        // Black ink on the left half, no ink on the right.
        let jpeg = cmyk_jpeg(40, 20, |x, _| if x < 16 { [0, 0, 0, 255] } else { [0; 4] });
        let decoder = image::ImageReader::new(std::io::Cursor::new(&jpeg))
            .with_guessed_format()
            .unwrap();
        assert_eq!(decoder.format(), Some(image::ImageFormat::Jpeg));
        let image = decoder.decode().unwrap().into_luma8();
        assert_eq!(image.dimensions(), (40, 20));
        let (left, right) = (image.get_pixel(4, 10)[0], image.get_pixel(36, 10)[0]);
        assert!(left.abs_diff(right) > 100, "left {left}, right {right}");
    }
}
