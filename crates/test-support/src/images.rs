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
}
