//! The README's sample Zenoh configurations are valid Zenoh configurations.

#[test]
fn readme_json5_configs_parse() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let readme = include_str!("../README.md");
    let mut blocks = 0;
    let mut rest = readme;
    while let Some(start) = rest.find("```json5\n") {
        let body = &rest[start + "```json5\n".len()..];
        let end = body.find("```").ok_or("unterminated block")?;
        let config = zenoh::Config::from_json5(&body[..end])?;
        assert_eq!(config.get_json("scouting/multicast/enabled")?, "false");
        blocks += 1;
        rest = &body[end..];
    }
    assert_eq!(blocks, 2, "the robot and the viewer config");
    Ok(())
}
