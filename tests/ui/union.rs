use pas::AgentTool;

#[derive(AgentTool)]
union Tool {
    a: u32,
    b: f32,
}

fn main() {}
